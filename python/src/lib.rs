//! `sroar.Roaring` for Python: a set of int64 held as sroar's native bytes (what a
//! `roaring64` column sends in binary), validated once and read in place, never
//! decoded. Values are Python ints in int64's range; the stored order is mapped to
//! signed order at the edge (`sroar::to_stored`), so iteration, `min`, `rank` and
//! slicing follow signed order.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use pyo3::basic::CompareOp;
use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PySlice, PyString};
use sroar::{to_signed, PortableFormat, Roaring as Set, RoaringView};

/// Values are converted in batches of this many.
const BATCH: usize = 1024;

self_cell::self_cell!(
    /// A set and its view, opened once: opening reads the header (about 9 ns), which
    /// would otherwise be paid on every `in` and `len`.
    struct Held {
        owner: Set,
        #[covariant]
        dependent: RoaringView,
    }
);

fn held(set: Set) -> Arc<Held> {
    Arc::new(Held::new(set, |s| s.view()))
}

/// An immutable set of int64 values, stored as sroar's bytes.
///
/// Roaring(iterable=None): the set of an iterable of ints or of a NumPy integer
/// array. Roaring.from_bytes(b) takes sroar's native bytes (a roaring64 column's
/// binary value), Roaring.from_portable(b) the standard 64-bit portable format.
#[pyclass(frozen, module = "sroar", name = "Roaring")]
struct Roaring {
    held: Arc<Held>,
}

fn format_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(format!("not a roaring64 value: {e}"))
}

fn capacity_error(e: sroar::CapacityError) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// Calls `f` with the bytes of a bytes-like object (bytes without a copy).
fn with_bytes<T>(data: &Bound<'_, PyAny>, f: impl FnOnce(&[u8]) -> PyResult<T>) -> PyResult<T> {
    if let Ok(b) = data.cast::<PyBytes>() {
        return f(b.as_bytes());
    }
    if let Ok(b) = data.cast::<PyByteArray>() {
        return f(&b.to_vec());
    }
    // memoryview and other buffers: one copy through bytes().
    let builtins = data.py().import("builtins")?;
    let copied = builtins.getattr("bytes")?.call1((data,))?;
    f(copied.cast::<PyBytes>()?.as_bytes())
}

impl Roaring {
    fn wrap(set: Set) -> Self {
        Roaring { held: held(set) }
    }

    fn view(&self) -> RoaringView<'_> {
        *self.held.borrow_dependent()
    }

    fn set(&self) -> &Set {
        self.held.borrow_owner()
    }

    /// The set of a NumPy integer array: its int64 bytes, read in one pass.
    fn from_numpy(array: &Bound<'_, PyAny>) -> PyResult<Set> {
        let kind: String = array.getattr("dtype")?.getattr("kind")?.extract()?;
        if kind != "i" && kind != "u" {
            return Err(PyTypeError::new_err(format!(
                "Roaring takes an integer array, not dtype kind {kind:?}"
            )));
        }
        let np = array.py().import("numpy")?;
        if kind == "u" {
            let size = array.getattr("size")?.extract::<usize>()?;
            if size > 0 && array.call_method0("max")?.gt(i64::MAX)? {
                return Err(pyo3::exceptions::PyOverflowError::new_err(
                    "an element of the array is out of range for int64",
                ));
            }
        }
        let contiguous = np.call_method1("ascontiguousarray", (array, "<i8"))?;
        let bytes = contiguous.call_method0("tobytes")?;
        let raw = bytes.cast::<PyBytes>()?.as_bytes();
        let values = raw
            .chunks_exact(8)
            .map(|c| i64::from_le_bytes(c.try_into().unwrap_or_default()));
        Set::from_signed(values).map_err(capacity_error)
    }

    fn other<'a>(other: &'a Bound<'_, PyAny>) -> Option<PyRef<'a, Roaring>> {
        other.cast::<Roaring>().ok().map(|r| r.borrow())
    }

    /// An operator's result, or NotImplemented when `other` is not a Roaring (as
    /// `set & list` is refused).
    fn binary(
        &self,
        other: &Bound<'_, PyAny>,
        op: impl FnOnce(&RoaringView<'_>, &RoaringView<'_>) -> Result<Set, sroar::CapacityError>,
    ) -> PyResult<Py<PyAny>> {
        let py = other.py();
        match Roaring::other(other) {
            Some(o) => {
                let set = op(&self.view(), &o.view()).map_err(capacity_error)?;
                Ok(Py::new(py, Roaring::wrap(set))?.into_any())
            }
            None => Ok(py.NotImplemented()),
        }
    }

    /// The 0-based rank `index` counted as Python indexes are (negative from the end).
    fn position(&self, index: i64) -> PyResult<u64> {
        let len = self.view().len();
        let k = if index < 0 {
            len.checked_sub(index.unsigned_abs())
        } else {
            Some(index as u64)
        };
        k.filter(|&k| k < len)
            .ok_or_else(|| PyIndexError::new_err("Roaring index out of range"))
    }
}

#[pymethods]
impl Roaring {
    #[new]
    #[pyo3(signature = (values = None))]
    fn new(values: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let Some(values) = values else {
            return Ok(Roaring::wrap(Set::new()));
        };
        if let Some(other) = Roaring::other(values) {
            return Ok(Roaring {
                held: other.held.clone(),
            });
        }
        if values.is_instance_of::<PyBytes>()
            || values.is_instance_of::<PyByteArray>()
            || values.is_instance_of::<PyString>()
        {
            return Err(PyTypeError::new_err(
                "Roaring(iterable) takes ints; read bytes with Roaring.from_bytes or Roaring.from_portable",
            ));
        }
        if values.hasattr("dtype")? && values.hasattr("tobytes")? {
            return Roaring::from_numpy(values).map(Roaring::wrap);
        }
        let mut items = Vec::new();
        for item in values.try_iter()? {
            items.push(item?.extract::<i64>()?);
        }
        Set::from_signed(items)
            .map(Roaring::wrap)
            .map_err(capacity_error)
    }

    /// The set whose native sroar bytes are `data` (bytes-like), validated once.
    #[staticmethod]
    fn from_bytes(data: &Bound<'_, PyAny>) -> PyResult<Self> {
        with_bytes(data, |bytes| {
            if sroar::looks_like_portable(bytes) {
                return Err(PyValueError::new_err(
                    "these are the standard portable format's bytes: use Roaring.from_portable",
                ));
            }
            Set::from_bytes(bytes.to_vec())
                .map(Roaring::wrap)
                .map_err(format_error)
        })
    }

    /// The set in the standard 64-bit portable format (CRoaring, pyroaring's
    /// BitMap64, roaring-rs), its unsigned values read as the int64 of the same bits.
    #[staticmethod]
    fn from_portable(data: &Bound<'_, PyAny>) -> PyResult<Self> {
        with_bytes(data, |bytes| {
            Set::from_portable(bytes, PortableFormat::Signed64)
                .map(Roaring::wrap)
                .map_err(format_error)
        })
    }

    /// The set of a roaring64 text form: `{1,-2}` or `\x` and hex of the bytes.
    #[staticmethod]
    fn from_text(text: &str) -> PyResult<Self> {
        Set::from_text(text)
            .map(Roaring::wrap)
            .map_err(format_error)
    }

    /// The set of a pyroaring BitMap64 (through the portable format).
    #[staticmethod]
    fn from_pyroaring(bitmap: &Bound<'_, PyAny>) -> PyResult<Self> {
        Roaring::from_portable(&bitmap.call_method0("serialize")?)
    }

    /// The standard 64-bit portable format (int64 -1 is 2**64 - 1 there).
    fn to_portable<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let len = self
            .view()
            .portable_len(PortableFormat::Signed64)
            .unwrap_or(0);
        PyBytes::new_with(py, len, |out| {
            self.view()
                .write_portable_into(PortableFormat::Signed64, out);
            Ok(())
        })
    }

    /// A pyroaring BitMap64 of the same bits (negative values are large there).
    fn to_pyroaring<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let portable = self.to_portable(py)?;
        py.import("pyroaring")?
            .getattr("BitMap64")?
            .call_method1("deserialize", (portable,))
    }

    /// The hex text form, `\x…`, as roaring64 input reads it.
    fn to_text(&self) -> String {
        self.set().to_hex_text()
    }

    fn __bytes__<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, self.set().as_bytes())
    }

    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyBytes>,))> {
        let from_bytes = py.get_type::<Roaring>().getattr("from_bytes")?;
        Ok((from_bytes, (self.__bytes__(py),)))
    }

    fn __copy__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __deepcopy__<'a>(slf: PyRef<'a, Self>, _memo: &Bound<'_, PyAny>) -> PyRef<'a, Self> {
        slf
    }

    fn __len__(&self) -> usize {
        self.view().len() as usize
    }

    fn __bool__(&self) -> bool {
        !self.view().is_empty()
    }

    fn __contains__(&self, x: &Bound<'_, PyAny>) -> bool {
        x.extract::<i64>()
            .is_ok_and(|x| self.view().contains_signed(x))
    }

    fn __hash__(&self) -> isize {
        let mut h = DefaultHasher::new();
        self.set().as_bytes().hash(&mut h);
        h.finish() as isize
    }

    fn __repr__(&self) -> String {
        const SHOWN: usize = 10;
        let values: Vec<String> = self
            .view()
            .iter_signed()
            .take(SHOWN)
            .map(|v| v.to_string())
            .collect();
        match self.view().len() {
            0 => "Roaring()".to_owned(),
            n if n as usize <= SHOWN => format!("Roaring({{{}}})", values.join(", ")),
            n => format!("Roaring({{{}, ...}}, len={n})", values.join(", ")),
        }
    }

    /// The smallest value; ValueError when empty.
    fn min(&self) -> PyResult<i64> {
        self.view()
            .min_signed()
            .ok_or_else(|| PyValueError::new_err("min() of an empty Roaring"))
    }

    /// The largest value; ValueError when empty.
    fn max(&self) -> PyResult<i64> {
        self.view()
            .max_signed()
            .ok_or_else(|| PyValueError::new_err("max() of an empty Roaring"))
    }

    /// How many values are at most `x`.
    fn rank(&self, x: i64) -> u64 {
        self.view().rank_signed(x)
    }

    /// The value at 0-based rank `k` (negative counts from the end); IndexError
    /// outside the set.
    fn select(&self, k: i64) -> PyResult<i64> {
        let k = self.position(k)?;
        Ok(self.view().select_signed(k).unwrap_or_default())
    }

    /// `r[k]` is `select(k)`; `r[i:j:s]` is a Roaring of the values at those ranks.
    fn __getitem__(&self, key: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let py = key.py();
        if let Ok(slice) = key.cast::<PySlice>() {
            let len = self.view().len();
            let ix = slice.indices(len as isize)?;
            let (start, stop, step) = (ix.start, ix.stop, ix.step);
            let view = self.view();
            let set = if step == 1 {
                let n = (stop - start).max(0) as usize;
                let from = view.select(start as u64).unwrap_or(u64::MAX);
                let mut picked = vec![0u64; n];
                let got = if n > 0 {
                    view.iter_from(from).next_batch(&mut picked)
                } else {
                    0
                };
                Set::from_sorted(&picked[..got]).map_err(capacity_error)?
            } else {
                let mut picked = Vec::new();
                let mut k = start;
                while (step > 0 && k < stop) || (step < 0 && k > stop) {
                    picked.push(view.select(k as u64).unwrap_or_default());
                    k += step;
                }
                picked.sort_unstable();
                Set::from_sorted(&picked).map_err(capacity_error)?
            };
            return Ok(Py::new(py, Roaring::wrap(set))?.into_any());
        }
        let k: i64 = key.extract()?;
        Ok(self.select(k)?.into_pyobject(py)?.into_any().unbind())
    }

    fn __iter__(&self) -> RoaringIter {
        RoaringIter {
            held: self.held.clone(),
            next: Some(0),
            batch: Vec::new(),
            pos: 0,
        }
    }

    /// The values as a NumPy int64 array, written in one pass.
    fn to_numpy<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let n = self.view().len() as usize;
        let buffer = PyByteArray::new_with(py, n * 8, |out| {
            let mut iter = self.view().iter();
            let mut batch = [0u64; BATCH];
            for chunk in out.chunks_mut(8 * BATCH) {
                let got = iter.next_batch(&mut batch);
                for (dst, &v) in chunk.chunks_exact_mut(8).zip(&batch[..got]) {
                    dst.copy_from_slice(&to_signed(v).to_le_bytes());
                }
            }
            Ok(())
        })?;
        py.import("numpy")?
            .call_method1("frombuffer", (buffer, "<i8"))
    }

    fn __and__(&self, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        self.binary(other, |a, b| a.and(b))
    }

    fn __or__(&self, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        self.binary(other, |a, b| a.or(b))
    }

    fn __xor__(&self, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        self.binary(other, |a, b| a.xor(b))
    }

    fn __sub__(&self, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        self.binary(other, |a, b| a.andnot(b))
    }

    /// `len(self & other)` without building it.
    fn and_len(&self, other: PyRef<'_, Roaring>) -> u64 {
        self.view().and_len(&other.view())
    }

    /// `len(self | other)` without building it.
    fn or_len(&self, other: PyRef<'_, Roaring>) -> u64 {
        self.view().or_len(&other.view())
    }

    /// `len(self ^ other)` without building it.
    fn xor_len(&self, other: PyRef<'_, Roaring>) -> u64 {
        self.view().xor_len(&other.view())
    }

    /// `len(self - other)` without building it.
    fn andnot_len(&self, other: PyRef<'_, Roaring>) -> u64 {
        self.view().andnot_len(&other.view())
    }

    fn isdisjoint(&self, other: PyRef<'_, Roaring>) -> bool {
        self.view().is_disjoint(&other.view())
    }

    fn issubset(&self, other: PyRef<'_, Roaring>) -> bool {
        self.view().is_subset(&other.view())
    }

    fn issuperset(&self, other: PyRef<'_, Roaring>) -> bool {
        self.view().is_superset(&other.view())
    }

    /// Equality of sets; `<=`, `<`, `>=`, `>` are subset and superset, as for `set`.
    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> Option<bool> {
        let other = Roaring::other(other)?;
        let (a, b) = (self.view(), other.view());
        Some(match op {
            CompareOp::Eq => a == b,
            CompareOp::Ne => a != b,
            CompareOp::Le => a.is_subset(&b),
            CompareOp::Lt => a != b && a.is_subset(&b),
            CompareOp::Ge => a.is_superset(&b),
            CompareOp::Gt => a != b && a.is_superset(&b),
        })
    }
}

/// Iterates a Roaring's values in ascending order, a batch at a time.
#[pyclass(module = "sroar")]
struct RoaringIter {
    held: Arc<Held>,
    /// The stored value to continue from; None once past the end.
    next: Option<u64>,
    batch: Vec<u64>,
    pos: usize,
}

#[pymethods]
impl RoaringIter {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self) -> Option<i64> {
        if self.pos == self.batch.len() {
            let from = self.next?;
            self.batch.resize(BATCH, 0);
            let got = self
                .held
                .borrow_dependent()
                .iter_from(from)
                .next_batch(&mut self.batch);
            self.batch.truncate(got);
            self.pos = 0;
            let last = *self.batch.last()?;
            self.next = last.checked_add(1);
        }
        let v = self.batch[self.pos];
        self.pos += 1;
        Some(to_signed(v))
    }
}

/// The module `sroar._sroar`, re-exported by the package `sroar`.
#[pymodule]
fn _sroar(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Roaring>()?;
    m.add("FORMAT_VERSION", sroar::FORMAT_VERSION)?;
    Ok(())
}
