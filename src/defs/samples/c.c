#include <stdio.h>

#define MAX 10
#define SQUARE(x) ((x) * (x))

struct point {
    int x;
    int y;
};

typedef struct {
    int w, h;
} size_t2;

typedef int (*callback)(int);

enum color { RED, GREEN };

static int
parse_args(argc, argv)
    int argc;
    char **argv;
{
    return argc;
}

static const char *
name_of(int c)
{
    return c ? "a" : "b";
}

int main(void) {
    int (*fp)(int) = 0;
    return parse_args(0, 0);
}

int prototype_only(int x);
