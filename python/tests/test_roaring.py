"""sroar.Roaring against Python's set, with values at the edges, and bad bytes."""

import copy
import pickle

import numpy as np
import pyroaring
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sroar import Roaring

I64_MIN, I64_MAX = -(2**63), 2**63 - 1
EDGES = [0, 1, -1, 2**16 - 1, 2**16, 2**32, 2**32 + 1, 2**48, -(2**48), I64_MIN, I64_MAX]

# Values near the edges, so that containers and keys are shared, plus any int64.
values = st.one_of(
    st.sampled_from(EDGES),
    st.builds(lambda e, d: max(I64_MIN, min(I64_MAX, e + d)), st.sampled_from(EDGES), st.integers(-300, 300)),
    st.integers(I64_MIN, I64_MAX),
)
sets = st.one_of(
    st.sets(values, max_size=60),
    # Long runs and full containers.
    st.builds(lambda e, n: set(range(e, e + n)), st.sampled_from([0, 2**32 - 70000, -(2**16)]), st.integers(0, 140000)),
)


def as_roaring(s):
    return Roaring(sorted(s) if len(s) % 2 else s)


@settings(max_examples=300, deadline=None)
@given(sets, values)
def test_one_set_matches_set(s, x):
    r = as_roaring(s)
    ordered = sorted(s)
    assert len(r) == len(s)
    assert bool(r) == bool(s)
    assert list(r) == ordered
    assert (x in r) == (x in s)
    assert r.rank(x) == sum(1 for v in s if v <= x)
    assert r.to_numpy().tolist() == ordered
    assert r.to_numpy().dtype == np.int64
    if s:
        assert r.min() == ordered[0] and r.max() == ordered[-1]
        for k in (0, len(s) // 2, len(s) - 1, -1, -len(s)):
            assert r.select(k) == ordered[k] == r[k]
        for sl in (slice(1, 5), slice(None, None, 3), slice(-4, None), slice(5, 2), slice(None, None, -2)):
            assert list(r[sl]) == sorted(ordered[sl])
    else:
        with pytest.raises(ValueError):
            r.min()
    with pytest.raises(IndexError):
        r.select(len(s))
    assert Roaring.from_bytes(bytes(r)) == r
    assert Roaring.from_portable(r.to_portable()) == r
    assert Roaring.from_text(r.to_text()) == r
    assert pickle.loads(pickle.dumps(r)) == r
    assert copy.deepcopy(r) == r
    assert hash(Roaring(s)) == hash(r)


@settings(max_examples=300, deadline=None)
@given(sets, sets)
def test_two_sets_match_set(a, b):
    ra, rb = as_roaring(a), as_roaring(b)
    for op, expected in (("__and__", a & b), ("__or__", a | b), ("__xor__", a ^ b), ("__sub__", a - b)):
        got = getattr(ra, op)(rb)
        assert list(got) == sorted(expected), op
    assert ra.and_len(rb) == len(a & b)
    assert ra.or_len(rb) == len(a | b)
    assert ra.xor_len(rb) == len(a ^ b)
    assert ra.andnot_len(rb) == len(a - b)
    assert ra.isdisjoint(rb) == a.isdisjoint(b)
    assert ra.issubset(rb) == a.issubset(b)
    assert ra.issuperset(rb) == a.issuperset(b)
    assert (ra == rb) == (a == b)
    assert (ra != rb) == (a != b)
    assert (ra <= rb) == (a <= b)
    assert (ra < rb) == (a < b)
    assert (ra >= rb) == (a >= b)
    assert (ra > rb) == (a > b)


def test_construction_forms():
    assert list(Roaring()) == []
    assert list(Roaring(np.array([5, -5, 5], dtype=np.int64))) == [-5, 5]
    assert list(Roaring(np.arange(3, dtype=np.uint8))) == [0, 1, 2]
    assert list(Roaring(np.array([I64_MIN, I64_MAX]))) == [I64_MIN, I64_MAX]
    assert list(Roaring(x for x in (2, 1))) == [1, 2]
    r = Roaring([1])
    assert Roaring(r) == r
    with pytest.raises(OverflowError):
        Roaring([2**63])
    with pytest.raises(OverflowError):
        Roaring(np.array([2**63], dtype=np.uint64))
    with pytest.raises(TypeError):
        Roaring(np.array([1.5]))
    with pytest.raises(TypeError):
        Roaring(b"\x01\x02")
    with pytest.raises(TypeError):
        Roaring(["1"])
    assert "x" not in r and 2**70 not in r and None not in r
    assert r.__and__(1) is NotImplemented
    with pytest.raises(TypeError):
        r & {1}
    assert repr(Roaring()) == "Roaring()"
    assert repr(Roaring([2, -1])) == "Roaring({-1, 2})"
    assert repr(Roaring(range(20))).endswith("8, 9, ...}, len=20)")


def test_pyroaring_sees_the_unsigned_bits():
    r = Roaring([-1, 0, 5])
    bm = r.to_pyroaring()
    assert isinstance(bm, pyroaring.BitMap64)
    assert list(bm) == [0, 5, 2**64 - 1]
    assert Roaring.from_pyroaring(bm) == r
    assert Roaring.from_pyroaring(pyroaring.BitMap64([2**64 - 1])) == Roaring([-1])
    # The portable bytes are pyroaring's own, byte for byte.
    assert r.to_portable() == bm.serialize()


def test_bytes_like_inputs():
    r = Roaring([1, 2**40])
    b = bytes(r)
    for data in (b, bytearray(b), memoryview(b)):
        assert Roaring.from_bytes(data) == r
    with pytest.raises(ValueError, match="portable"):
        Roaring.from_bytes(r.to_portable())


def mutants(data):
    for n in range(len(data)):
        yield data[:n]
    for i in range(len(data)):
        for flip in (0x01, 0x80, 0xFF):
            m = bytearray(data)
            m[i] ^= flip
            yield bytes(m)


@pytest.mark.parametrize(
    "values",
    [[], [0], [-1, 1], EDGES, list(range(0, 5000, 3)), list(range(2**32 - 100, 2**32 + 100))],
)
def test_bad_bytes_raise_with_the_reason(values):
    r = Roaring(values)
    for data in mutants(bytes(r)):
        try:
            m = Roaring.from_bytes(data)
        except ValueError as e:
            assert "not a roaring64 value" in str(e)
        else:
            assert len(list(m)) == len(m)
    for data in mutants(r.to_portable()):
        try:
            m = Roaring.from_portable(data)
        except ValueError as e:
            assert str(e)
        else:
            assert len(list(m)) == len(m)
    for text in ("{1,", "{x}", "\\x0", "\\xzz", "{NULL}", "{99999999999999999999}", "\\x" + bytes(r)[:-1].hex()):
        with pytest.raises(ValueError):
            Roaring.from_text(text)
