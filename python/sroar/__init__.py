"""Sets of int64 held as sroar's bytes: what a PostgreSQL ``roaring64`` column sends
in binary, read in place (validated once, never decoded).

>>> from sroar import Roaring
>>> r = Roaring([3, -1, 3])
>>> len(r), -1 in r, list(r)
(2, True, [-1, 3])
>>> Roaring.from_bytes(bytes(r)) == r
True

``sroar.psycopg.register(conn)`` makes psycopg 3 load ``roaring64`` columns as
``Roaring`` and send ``Roaring`` parameters as ``roaring64``.
"""

from ._sroar import FORMAT_VERSION, Roaring

__all__ = ["FORMAT_VERSION", "Roaring"]
