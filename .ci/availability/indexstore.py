"""Reads symbol occurrences from a Swift/Clang index store through the toolchain's libIndexStore.

Only the plain-C `_f` entry points of `indexstore.h` are used (the block-based ones need
Apple's blocks runtime), so `ctypes` is enough: no compiler, no third-party package.
"""

import ctypes
import glob
import os
from dataclasses import dataclass

# indexstore_symbol_role_t (indexstore.h)
ROLE_DECLARATION = 1 << 0
ROLE_DEFINITION = 1 << 1
ROLE_REFERENCE = 1 << 2
ROLE_CALL = 1 << 5
ROLE_IMPLICIT = 1 << 8

# indexstore_unit_dependency_kind_t
DEPENDENCY_UNIT = 1
DEPENDENCY_RECORD = 2
DEPENDENCY_FILE = 3


class _StringRef(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("length", ctypes.c_size_t)]

    def text(self):
        if not self.data or not self.length:
            return ""
        return ctypes.string_at(self.data, self.length).decode("utf-8", "replace")


_UNIT_APPLIER = ctypes.CFUNCTYPE(ctypes.c_bool, ctypes.c_void_p, _StringRef)
_POINTER_APPLIER = ctypes.CFUNCTYPE(ctypes.c_bool, ctypes.c_void_p, ctypes.c_void_p)


def find_library():
    """The toolchain's libIndexStore.so: $INDEXSTORE_LIB, else next to the `swift` on PATH, else /opt/swift."""
    explicit = os.environ.get("INDEXSTORE_LIB")
    if explicit:
        return explicit
    candidates = []
    for directory in os.environ.get("PATH", "").split(os.pathsep):
        swift = os.path.join(directory, "swift")
        if os.path.isfile(swift):
            usr = os.path.dirname(os.path.dirname(os.path.realpath(swift)))
            candidates.append(os.path.join(usr, "lib", "libIndexStore.so"))
    candidates += sorted(glob.glob("/opt/swift/usr/lib/libIndexStore.so*"))
    candidates += sorted(glob.glob("/usr/lib/libIndexStore.so*"))
    for candidate in candidates:
        if os.path.exists(candidate):
            return candidate
    raise RuntimeError("libIndexStore.so not found; set INDEXSTORE_LIB")


@dataclass(frozen=True)
class Occurrence:
    path: str        # the source file the record belongs to
    line: int        # 1-based
    column: int      # 1-based, in UTF-8 bytes
    usr: str
    name: str
    kind: int        # indexstore_symbol_kind_t
    roles: int       # indexstore_symbol_role_t of this occurrence


class IndexStore:
    def __init__(self, store_path, library=None):
        self._lib = lib = ctypes.CDLL(library or find_library())
        vp, b, u = ctypes.c_void_p, ctypes.c_bool, ctypes.c_uint
        sig = {
            "indexstore_store_create": (vp, [ctypes.c_char_p, ctypes.POINTER(vp)]),
            "indexstore_store_dispose": (None, [vp]),
            "indexstore_error_get_description": (ctypes.c_char_p, [vp]),
            "indexstore_error_dispose": (None, [vp]),
            "indexstore_store_units_apply_f": (b, [vp, u, vp, _UNIT_APPLIER]),
            "indexstore_unit_reader_create": (vp, [vp, ctypes.c_char_p, ctypes.POINTER(vp)]),
            "indexstore_unit_reader_dispose": (None, [vp]),
            "indexstore_unit_reader_get_main_file": (_StringRef, [vp]),
            "indexstore_unit_reader_get_module_name": (_StringRef, [vp]),
            "indexstore_unit_reader_is_system_unit": (b, [vp]),
            "indexstore_unit_reader_get_modification_time": (None, [vp, ctypes.POINTER(ctypes.c_int64),
                                                                     ctypes.POINTER(ctypes.c_int64)]),
            "indexstore_unit_reader_dependencies_apply_f": (b, [vp, vp, _POINTER_APPLIER]),
            "indexstore_unit_dependency_get_kind": (ctypes.c_int, [vp]),
            "indexstore_unit_dependency_get_filepath": (_StringRef, [vp]),
            "indexstore_unit_dependency_get_name": (_StringRef, [vp]),
            "indexstore_record_reader_create": (vp, [vp, ctypes.c_char_p, ctypes.POINTER(vp)]),
            "indexstore_record_reader_dispose": (None, [vp]),
            "indexstore_record_reader_occurrences_apply_f": (b, [vp, vp, _POINTER_APPLIER]),
            "indexstore_occurrence_get_symbol": (vp, [vp]),
            "indexstore_occurrence_get_roles": (ctypes.c_uint64, [vp]),
            "indexstore_occurrence_get_line_col": (None, [vp, ctypes.POINTER(u), ctypes.POINTER(u)]),
            "indexstore_symbol_get_usr": (_StringRef, [vp]),
            "indexstore_symbol_get_name": (_StringRef, [vp]),
            "indexstore_symbol_get_kind": (ctypes.c_int, [vp]),
        }
        for name, (restype, argtypes) in sig.items():
            function = getattr(lib, name)
            function.restype = restype
            function.argtypes = argtypes
        error = vp()
        self._store = lib.indexstore_store_create(os.fsencode(store_path), ctypes.byref(error))
        self._check(self._store, error, "cannot open index store " + store_path)

    def _check(self, handle, error, what):
        if handle:
            return
        message = ""
        if error.value:
            message = self._lib.indexstore_error_get_description(error).decode("utf-8", "replace")
            self._lib.indexstore_error_dispose(error)
        raise RuntimeError(f"{what}: {message}")

    def close(self):
        if self._store:
            self._lib.indexstore_store_dispose(self._store)
            self._store = None

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.close()

    def unit_names(self):
        names = []

        def collect(_context, name):
            names.append(name.text())
            return True

        callback = _UNIT_APPLIER(collect)
        self._lib.indexstore_store_units_apply_f(self._store, 1, None, callback)
        return names

    def records_of_unit(self, unit_name):
        """(module name, [(source path, record name)], written at (seconds since the epoch)) of
        one unit; system units give no records."""
        lib = self._lib
        error = ctypes.c_void_p()
        reader = lib.indexstore_unit_reader_create(self._store, unit_name.encode(), ctypes.byref(error))
        self._check(reader, error, "cannot read unit " + unit_name)
        try:
            if lib.indexstore_unit_reader_is_system_unit(reader):
                return None, [], 0.0
            module = lib.indexstore_unit_reader_get_module_name(reader).text()
            seconds, nanoseconds = ctypes.c_int64(), ctypes.c_int64()
            lib.indexstore_unit_reader_get_modification_time(reader, ctypes.byref(seconds), ctypes.byref(nanoseconds))
            written = seconds.value + nanoseconds.value / 1e9
            records = []

            def visit(_context, dependency):
                if lib.indexstore_unit_dependency_get_kind(dependency) == DEPENDENCY_RECORD:
                    records.append((lib.indexstore_unit_dependency_get_filepath(dependency).text(),
                                    lib.indexstore_unit_dependency_get_name(dependency).text()))
                return True

            callback = _POINTER_APPLIER(visit)
            lib.indexstore_unit_reader_dependencies_apply_f(reader, None, callback)
            return module, records, written
        finally:
            lib.indexstore_unit_reader_dispose(reader)

    def occurrences(self, path, record_name):
        """Every occurrence in one record (one source file)."""
        lib = self._lib
        error = ctypes.c_void_p()
        reader = lib.indexstore_record_reader_create(self._store, record_name.encode(), ctypes.byref(error))
        self._check(reader, error, "cannot read record " + record_name)
        found = []
        line, column = ctypes.c_uint(), ctypes.c_uint()

        def visit(_context, occurrence):
            symbol = lib.indexstore_occurrence_get_symbol(occurrence)
            lib.indexstore_occurrence_get_line_col(occurrence, ctypes.byref(line), ctypes.byref(column))
            found.append(Occurrence(
                path=path,
                line=line.value,
                column=column.value,
                usr=lib.indexstore_symbol_get_usr(symbol).text(),
                name=lib.indexstore_symbol_get_name(symbol).text(),
                kind=lib.indexstore_symbol_get_kind(symbol),
                roles=lib.indexstore_occurrence_get_roles(occurrence),
            ))
            return True

        callback = _POINTER_APPLIER(visit)
        try:
            lib.indexstore_record_reader_occurrences_apply_f(reader, None, callback)
        finally:
            lib.indexstore_record_reader_dispose(reader)
        return found


def find_store(scratch_path):
    """The index store SwiftPM writes under a scratch path (…/<triple>/debug/index/store)."""
    stores = sorted(glob.glob(os.path.join(scratch_path, "*", "*", "index", "store")))
    stores = [s for s in stores if not os.path.islink(os.path.dirname(os.path.dirname(s)))] or stores
    if not stores:
        raise RuntimeError("no index store under " + scratch_path)
    return stores[0]
