#include <vector>

namespace geo {
namespace detail {

template <typename T>
T max(T a, T b) {
    return a > b ? a : b;
}

}  // namespace detail

class Shape {
public:
    Shape() = default;
    virtual ~Shape() {}
    virtual double area() const = 0;
    int id() const { return id_; }
    bool operator==(const Shape& o) const { return id_ == o.id_; }

private:
    struct Cache {
        void clear() {}
    };
    int id_;
};

template <typename T>
class Box : public Shape {
public:
    double area() const override {
        auto f = [this](int k) {
            return k * 2;
        };
        return f(1);
    }
};

struct Point { int x, y; };

using Points = std::vector<Point>;

}  // namespace geo

void geo::Shape::helper() {
}

double Circle::area() const {
    return 3.14;
}

Circle::~Circle() {}

namespace {
int hidden() { return 0; }
}
