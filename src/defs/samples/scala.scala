package com.example.shapes

import scala.collection.mutable

val DefaultName = "shape"

/** A shape with an area. */
trait Shape {
  def area: Double
  def describe(): String = s"shape of $area"
}

case class Circle(radius: Double) extends Shape {
  val Pi = 3.14159
  def area: Double = {
    val squared = radius * radius
    Pi * squared
  }
}

object Circle {
  private var created = 0
  def unit: Circle = Circle(1.0)
  implicit val ordering: Ordering[Circle] = Ordering.by(_.radius)
}

sealed abstract class Animal(val name: String)

enum Color {
  case Red, Green
  case Custom(hex: String)
}

type Registry = mutable.Map[String, Shape]

given defaultShape: Shape = Circle(2.0)

extension (c: Circle) def diameter: Double = c.radius * 2

def topLevel(xs: List[Int]): Int = {
  def helper(x: Int): Int = x + 1
  xs.map(helper).sum
}

package object util {
  def clamp(x: Int): Int = x.max(0)
}
