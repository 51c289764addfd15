/* Helpers the compiled solver modules share: reading a Python game object's
 * int attributes with precise errors, and the monotonic clock (the same as
 * Python's time.monotonic on Linux, so a deadline from Python compares). */
#ifndef INTRIGUE_PYREAD_H
#define INTRIGUE_PYREAD_H

#include <Python.h>
#include <stdint.h>
#include <time.h>

static inline double monotonic(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    int64_t ns = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
    return (double)ns * 1e-9;
}

/* A sequence of ints into out (at most `size` of them, or exactly `size` if
 * count is NULL), each in [lo, hi]. */
static inline int read_ints(PyObject *seq_obj, const char *name, int *out, Py_ssize_t size, long lo, long hi,
                     Py_ssize_t *count) {
    PyObject *seq = PySequence_Tuple(seq_obj);
    if (!seq) return -1;
    Py_ssize_t n = PyTuple_GET_SIZE(seq);
    if (count ? n > size : n != size) {
        PyErr_Format(PyExc_ValueError, "%s has %zd entries, expected %s%zd", name, n, count ? "at most " : "",
                     size);
        Py_DECREF(seq);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PyTuple_GET_ITEM(seq, i);
        if (!PyLong_Check(item)) {
            PyErr_Format(PyExc_TypeError, "%s: expected ints, got %.100s", name, Py_TYPE(item)->tp_name);
            Py_DECREF(seq);
            return -1;
        }
        int overflow;
        long x = PyLong_AsLongAndOverflow(item, &overflow);
        if (x == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        if (overflow || x < lo || x > hi) {
            PyErr_Format(PyExc_ValueError, "%s: %R is outside [%ld, %ld]", name, item, lo, hi);
            Py_DECREF(seq);
            return -1;
        }
        out[i] = (int)x;
    }
    Py_DECREF(seq);
    if (count) *count = n;
    return 0;
}

static inline int read_attr(PyObject *obj, const char *attr, int *out, Py_ssize_t size, long lo, long hi,
                     Py_ssize_t *count) {
    PyObject *v = PyObject_GetAttrString(obj, attr);
    if (!v) return -1;
    int err = read_ints(v, attr, out, size, lo, hi, count);
    Py_DECREF(v);
    return err;
}

/* An attribute that is an int in [lo, hi]. */
static inline int read_int(PyObject *obj, const char *attr, int *out, long lo, long hi) {
    PyObject *v = PyObject_GetAttrString(obj, attr);
    if (!v) return -1;
    int err = 0;
    if (!PyLong_Check(v)) {
        PyErr_Format(PyExc_TypeError, "%s: expected an int, got %.100s", attr, Py_TYPE(v)->tp_name);
        err = -1;
    } else {
        int overflow;
        long x = PyLong_AsLongAndOverflow(v, &overflow);
        if (x == -1 && PyErr_Occurred()) {
            err = -1;
        } else if (overflow || x < lo || x > hi) {
            PyErr_Format(PyExc_ValueError, "%s: %R is outside [%ld, %ld]", attr, v, lo, hi);
            err = -1;
        } else {
            *out = (int)x;
        }
    }
    Py_DECREF(v);
    return err;
}

/* An attribute that is a sequence of sequences of ints: each row into
 * out + row * width (at most `width` ints, or exactly if lengths is NULL),
 * at most max_rows rows; how many rows in *rows, each row's length in lengths. */
static inline int read_rows(PyObject *obj, const char *attr, int *out, Py_ssize_t width, Py_ssize_t max_rows, long lo,
                     long hi, Py_ssize_t *rows, int *lengths) {
    PyObject *v = PyObject_GetAttrString(obj, attr);
    if (!v) return -1;
    PyObject *seq = PySequence_Tuple(v);
    Py_DECREF(v);
    if (!seq) return -1;
    Py_ssize_t n = PyTuple_GET_SIZE(seq);
    int err = 0;
    if (n > max_rows) {
        PyErr_Format(PyExc_ValueError, "%s has %zd entries, expected at most %zd", attr, n, max_rows);
        err = -1;
    }
    for (Py_ssize_t i = 0; i < n && !err; i++) {
        Py_ssize_t length;
        err = read_ints(PyTuple_GET_ITEM(seq, i), attr, out + i * width, width, lo, hi, lengths ? &length : NULL);
        if (!err && lengths) lengths[i] = (int)length;
    }
    Py_DECREF(seq);
    *rows = n;
    return err;
}

#endif
