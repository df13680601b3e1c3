//! Module doc.
use std::fmt;

/// A point.
#[derive(Debug, Clone)]
#[allow(dead_code)]
pub struct Point<T> {
    x: T,
    y: T,
}

impl<T: Copy> Point<T> {
    pub fn new(x: T, y: T) -> Self {
        let f = |a: T| {
            a
        };
        Point { x: f(x), y }
    }
}

impl fmt::Display for Point<i32> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

pub trait Shape {
    fn area(&self) -> f64;
    fn name(&self) -> &str {
        "shape"
    }
}

pub enum Kind { A, B }

const MAX: usize = 10;
static NAME: &str = "x";
type Pair = (u32, u32);

macro_rules! square {
    ($x:expr) => {
        $x * $x
    };
}

mod inner {
    pub fn helper() -> u32 {
        fn nested() -> u32 { 1 }
        nested()
    }
}

impl<'a> Drop for &'a mut Point<u8> {
    fn drop(&mut self) {}
}
