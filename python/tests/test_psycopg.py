"""sroar.psycopg against a live server (SROAR_PG_PORT, scripts/test.sh starts one):
binary and text results, parameters, NULL, bad bytes, binary COPY both ways."""

import os

import psycopg
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sroar.psycopg
from sroar import Roaring

I64_MIN, I64_MAX = -(2**63), 2**63 - 1
EDGE_SETS = [
    [],
    [0],
    [I64_MIN, -1, 0, 1, I64_MAX],
    [2**16 - 1, 2**16, 2**32, 2**48, -(2**48)],
    list(range(2**32 - 70000, 2**32 + 70000)),
    list(range(0, 65536)) + [2**48],
]


@pytest.fixture(scope="module")
def conn():
    port = os.environ.get("SROAR_PG_PORT", "15433")
    with psycopg.connect(f"host=127.0.0.1 port={port} user=postgres dbname=postgres", autocommit=True) as c:
        c.execute("CREATE EXTENSION IF NOT EXISTS sroar_pg")
        sroar.psycopg.register(c, sets=True)
        yield c


def text_of(values):
    return "{" + ",".join(str(v) for v in sorted(values)) + "}"


@pytest.mark.parametrize("values", EDGE_SETS, ids=range(len(EDGE_SETS)))
def test_results_in_binary_and_both_text_forms(conn, values):
    text = text_of(values)
    got = conn.execute("SELECT %s::text::roaring64", [text], binary=True).fetchone()[0]
    assert isinstance(got, Roaring)
    assert list(got) == sorted(values)
    for form in ("array", "hex"):
        conn.execute(f"SET sroar.output_format = '{form}'")
        got_text = conn.execute("SELECT %s::text::roaring64", [text]).fetchone()[0]
        assert got_text == got, form
    conn.execute("RESET sroar.output_format")


@pytest.mark.parametrize("values", EDGE_SETS, ids=range(len(EDGE_SETS)))
def test_parameters_in_binary_and_text(conn, values):
    r = Roaring(values)
    for binary in (True, False):
        with conn.cursor(binary=binary) as cur:
            back = cur.execute("SELECT %b::roaring64::text" if binary else "SELECT %t::roaring64::text", [r]).fetchone()[0]
            assert back == text_of(values)
    # Python sets are sent as roaring64 with sets=True.
    assert conn.execute("SELECT rb_cardinality(%s)", [set(values)]).fetchone()[0] == len(values)
    assert conn.execute("SELECT rb_cardinality(%s)", [frozenset(values)]).fetchone()[0] == len(values)


def test_signed_order_null_and_state(conn):
    r = conn.execute("SELECT '{5,-1,-9223372036854775808,0}'::roaring64", binary=True).fetchone()[0]
    assert -1 in r and 1 not in r
    assert list(r) == [I64_MIN, -1, 0, 5]
    assert r.rank(-1) == 2
    for x in (I64_MIN, -2, -1, 0, 5, I64_MAX):
        assert conn.execute("SELECT rb_rank(%s, %s)", [r, x]).fetchone()[0] == r.rank(x)
    assert conn.execute("SELECT NULL::roaring64", binary=True).fetchone()[0] is None
    assert conn.execute("SELECT NULL::roaring64").fetchone()[0] is None
    state = conn.execute("SELECT '{1,2}'::roaring64_state", binary=True).fetchone()[0]
    assert state == Roaring([1, 2])


def test_bad_bytes_are_refused_with_the_reason(conn):
    good = bytes(Roaring([1, 2**40]))
    with pytest.raises(psycopg.errors.InvalidBinaryRepresentation) as e:
        conn.execute("SELECT %b::roaring64", [good[:-1]])
    assert e.value.sqlstate == "22P03"
    # The loader refuses bytes that are not a set, with the reason.
    with pytest.raises(ValueError, match="not a roaring64 value"):
        sroar.psycopg.RoaringBinaryLoader(0).load(good[:-1])
    with pytest.raises(ValueError):
        sroar.psycopg.RoaringTextLoader(0).load(b"{1,x}")


def test_binary_copy_in_and_out(conn):
    conn.execute("DROP TABLE IF EXISTS py_copy; CREATE TABLE py_copy (id int8, s roaring64)")
    sets = [Roaring(v) for v in EDGE_SETS]
    with conn.cursor() as cur:
        with cur.copy("COPY py_copy FROM STDIN (FORMAT BINARY)") as copy:
            copy.set_types(["int8", "roaring64"])
            for i, r in enumerate(sets):
                copy.write_row([i, r])
        for i, values in enumerate(EDGE_SETS):
            assert cur.execute("SELECT s::text FROM py_copy WHERE id = %s", [i]).fetchone()[0] == text_of(values)
        with cur.copy("COPY (SELECT id, s FROM py_copy ORDER BY id) TO STDOUT (FORMAT BINARY)") as copy:
            copy.set_types(["int8", "roaring64"])
            rows = list(copy.rows())
    assert [r for _, r in rows] == sets
    conn.execute("DROP TABLE py_copy")


@settings(max_examples=60, deadline=None)
@given(
    st.sets(st.integers(I64_MIN, I64_MAX), max_size=40) | st.sets(st.integers(-70000, 70000), max_size=400),
    st.sets(st.integers(-70000, 70000), max_size=400),
)
def test_server_and_client_agree_with_set(conn, a, b):
    ra, rb = Roaring(a), Roaring(b)
    row = conn.execute(
        "SELECT %s::roaring64 & %s, %s::roaring64 | %s, rb_and_cardinality(%s, %s)",
        [ra, rb, ra, rb, ra, rb],
        binary=True,
    ).fetchone()
    assert list(row[0]) == sorted(a & b) == list(ra & rb)
    assert list(row[1]) == sorted(a | b) == list(ra | rb)
    assert row[2] == len(a & b) == ra.and_len(rb)
