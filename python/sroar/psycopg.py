"""psycopg 3 adapters for sroar_pg's ``roaring64`` (and ``roaring64_state``).

>>> import psycopg, sroar.psycopg
>>> conn = psycopg.connect(...)                     # doctest: +SKIP
>>> sroar.psycopg.register(conn)                    # doctest: +SKIP
>>> conn.execute("SELECT '{1,2}'::roaring64", binary=True).fetchone()[0]   # doctest: +SKIP
Roaring({1, 2})

Results load as ``sroar.Roaring`` in binary (the value's own bytes, no decode) and in
text (either ``sroar.output_format``: ``{1,2}`` or ``\\x`` hex). ``Roaring``
parameters are sent in binary; with ``sets=True``, Python ``set`` and ``frozenset``
of ints are sent as ``roaring64`` too. Binary COPY works in both directions with
``copy.set_types(["roaring64", ...])``.
"""

from psycopg.adapt import Dumper, Loader
from psycopg.pq import Format
from psycopg.types import TypeInfo

from . import Roaring

__all__ = ["register"]


class RoaringBinaryLoader(Loader):
    format = Format.BINARY

    def load(self, data):
        return Roaring.from_bytes(data)


class RoaringTextLoader(Loader):
    format = Format.TEXT

    def load(self, data):
        return Roaring.from_text(bytes(data).decode())


class RoaringBinaryDumper(Dumper):
    format = Format.BINARY

    def dump(self, obj):
        return bytes(obj)


class RoaringTextDumper(Dumper):
    format = Format.TEXT

    def dump(self, obj):
        return obj.to_text().encode()


class SetBinaryDumper(RoaringBinaryDumper):
    def dump(self, obj):
        return bytes(Roaring(obj))


class SetTextDumper(RoaringTextDumper):
    def dump(self, obj):
        return Roaring(obj).to_text().encode()


def _fetch(conn, name):
    info = TypeInfo.fetch(conn, name)
    if info is None:
        raise LookupError(f"type {name} not found: is the sroar_pg extension created?")
    return info


def register(context, *, sets=False, conn=None):
    """Registers the adapters on ``context`` (a connection or a cursor; pass
    ``conn=`` to register on something else, such as ``psycopg.adapters``).

    Looks the type OIDs up once, so the extension must exist in the database.
    """
    conn = conn or getattr(context, "connection", context)
    for name in ("roaring64", "roaring64_state"):
        info = _fetch(conn, name)
        info.register(context)
        oid = info.oid
        context.adapters.register_loader(oid, RoaringBinaryLoader)
        context.adapters.register_loader(oid, RoaringTextLoader)
        if name == "roaring64":
            for dumper in (RoaringBinaryDumper, RoaringTextDumper):
                cls = type(dumper.__name__, (dumper,), {"oid": oid})
                context.adapters.register_dumper(Roaring, cls)
            if sets:
                for dumper in (SetBinaryDumper, SetTextDumper):
                    cls = type(dumper.__name__, (dumper,), {"oid": oid})
                    context.adapters.register_dumper(set, cls)
                    context.adapters.register_dumper(frozenset, cls)
