import functools

MAX = 10


def plain(a, b):
    return a + b


@functools.lru_cache(maxsize=None)
@other
def cached(x):
    f = lambda y: (
        y + 1
    )
    return f(x)


class Server:
    """A server."""

    port = 80

    def __init__(self, host):
        self.host = host

    @property
    def address(self):
        return self.host

    class Config:
        def load(self):
            def helper():
                return 1
            return helper()

    async def handle(self, req):
        return [
            x for x in req
        ]
