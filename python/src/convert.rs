//! Values across the boundary: `serde_json::Value` to and from plain
//! Python objects (dict, list, str, int, float, bool, None), so every
//! action, view and rule set has exactly the server's JSON shape.

use pyo3::IntoPyObjectExt;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Number, Value};

use crate::invalid;

/// `v` as a Python object.
pub fn to_py(py: Python<'_>, v: &Value) -> PyResult<Py<PyAny>> {
    match v {
        Value::Null => Ok(py.None()),
        Value::Bool(b) => b.into_py_any(py),
        Value::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => i.into_py_any(py),
            (_, Some(u)) => u.into_py_any(py),
            _ => n.as_f64().unwrap_or(f64::NAN).into_py_any(py),
        },
        Value::String(s) => s.into_py_any(py),
        Value::Array(a) => {
            let list = PyList::empty(py);
            for x in a {
                list.append(to_py(py, x)?)?;
            }
            list.into_py_any(py)
        }
        Value::Object(o) => {
            let dict = PyDict::new(py);
            for (k, x) in o {
                dict.set_item(k, to_py(py, x)?)?;
            }
            dict.into_py_any(py)
        }
    }
}

/// `x` (anything serializable, a server type) as a Python object.
pub fn ser<T: Serialize>(py: Python<'_>, x: &T) -> PyResult<Py<PyAny>> {
    let v = serde_json::to_value(x).map_err(|e| invalid(format!("cannot serialize: {e}")))?;
    to_py(py, &v)
}

/// A Python object as a JSON value (dicts need string keys).
pub fn from_py(obj: &Bound<'_, PyAny>) -> PyResult<Value> {
    if obj.is_none() {
        return Ok(Value::Null);
    }
    if let Ok(b) = obj.cast::<PyBool>() {
        return Ok(Value::Bool(b.is_true()));
    }
    if obj.is_instance_of::<PyInt>() {
        if let Ok(i) = obj.extract::<i64>() {
            return Ok(Value::from(i));
        }
        return Ok(Value::from(obj.extract::<u64>()?));
    }
    if let Ok(f) = obj.cast::<PyFloat>() {
        return Number::from_f64(f.value())
            .map(Value::Number)
            .ok_or_else(|| invalid("a number that is not finite"));
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(Value::String(s.to_str()?.to_string()));
    }
    if let Ok(d) = obj.cast::<PyDict>() {
        let mut map = Map::new();
        for (k, x) in d.iter() {
            let key = k
                .cast::<PyString>()
                .map_err(|_| invalid("object keys must be strings"))?;
            map.insert(key.to_str()?.to_string(), from_py(&x)?);
        }
        return Ok(Value::Object(map));
    }
    if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
        let items: Vec<Bound<'_, PyAny>> = obj.extract()?;
        return items
            .iter()
            .map(from_py)
            .collect::<PyResult<_>>()
            .map(Value::Array);
    }
    Err(invalid(format!(
        "cannot read a {} as JSON",
        obj.get_type().name()?
    )))
}

/// A Python object read as the server type `T` (refused as the server's
/// `invalid_request` would).
pub fn de<T: DeserializeOwned>(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<T> {
    serde_json::from_value(from_py(obj)?).map_err(|e| invalid(format!("invalid {what}: {e}")))
}
