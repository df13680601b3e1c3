package com.example

import kotlin.math.PI

const val MAX = 10

interface Shape {
    fun area(): Double
}

enum class Color { RED, GREEN }

data class Point(val x: Int, val y: Int)

class Circle(private val r: Double) : Shape {
    val name: String = "circle"

    constructor(d: Int) : this(d / 2.0)

    override fun area(): Double {
        val sq = { v: Double ->
            v * v
        }
        return PI * sq(r)
    }

    class Inner {
        fun deep() = 1
    }

    companion object {
        fun unit(): Circle = Circle(1.0)
    }
}

object Registry {
    fun register(s: Shape) {
        println(s)
    }
}

typealias Shapes = List<Shape>

fun <T> List<T>.second(): T = this[1]

fun main() {
    val c = Circle(2.0)
    println(c.area())
}
