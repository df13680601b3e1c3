library shapes;

import 'dart:math' as math;

const maxShapes = 100;
final registry = <String, Shape>{};

/// A shape.
abstract class Shape {
  double get area;
  String describe() => 'shape';
}

class Circle extends Shape {
  final double radius;
  static const unit = 1.0;

  Circle(this.radius);
  Circle.unit() : radius = 1.0;
  factory Circle.fromJson(Map<String, Object?> json) => Circle(1);

  @override
  double get area {
    final squared = radius * radius;
    return math.pi * squared;
  }

  set scale(double k) {}

  Circle operator +(Circle other) => Circle(radius + other.radius);
}

mixin Named {
  String get name => 'named';
}

enum Color {
  red,
  green;

  bool get isRed => this == Color.red;
}

extension CircleX on Circle {
  double diameter() => radius * 2;
}

typedef Callback = void Function(Shape shape);

Future<void> main(List<String> args) async {
  int helper(int x) => x + 1;
  print(helper(1));
}
