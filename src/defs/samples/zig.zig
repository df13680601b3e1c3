const std = @import("std");

pub const max_items: usize = 64;
var counter: u32 = 0;

/// A point.
pub const Point = struct {
    x: f32,
    y: f32 = 0,

    pub fn init(x: f32, y: f32) Point {
        const scale = 1.0;
        return .{ .x = x * scale, .y = y };
    }

    fn norm(self: Point) f32 {
        return self.x;
    }
};

const Color = enum {
    red,
    green,

    pub fn isRed(self: Color) bool {
        return self == .red;
    }
};

const Error = error{ OutOfMemory, Invalid };

pub fn List(comptime T: type) type {
    return struct {
        items: []T,

        pub fn len(self: @This()) usize {
            return self.items.len;
        }
    };
}

fn helper() void {
    var local: u32 = 1;
    local += 1;
}

test "point init" {
    const p = Point.init(1, 2);
    try std.testing.expect(p.x == 1);
}
