"""Safe file input and output, for every file foldplan reads or writes.

Reading (`read_text_limited`, `load_json`, `load_yaml`): only regular files, opened
with O_NONBLOCK so that a FIFO cannot block the open, checked with `fstat` before a
byte is read (a FIFO, a device such as /dev/zero, a directory or a socket is refused
by name), at most `max_bytes` read whatever `st_size` claims, UTF-8 only, no NUL
byte; parsed documents are bounded in depth and in nodes (YAML aliases count each
time they are reached, so an alias bomb is refused, not expanded).

Writing (`atomic_write_text`, `atomic_replace_dir`): write aside in the same
directory, fsync, rename into place, fsync the directory; only over a regular file
(for a file) or a directory (for a bundle), never over a device, FIFO or socket;
missing parent directories are an error, not created. Writers of one directory
serialise on an exclusive `flock` of that directory itself (no lock file is left
behind); the emptiness check and the replacement happen under the lock. Temporary
directories carry the writer's own `flock`: one whose lock can be taken belongs to a
dead writer (`kill -9`) and is removed by the next writer; if that dead writer had
moved the old OUT aside and not yet renamed the new one in, the old OUT is put back.

Every refusal is an `InputError` (a ValueError): one line naming the field.
"""
from __future__ import annotations

from planner.safeio.read import (PathLike, MAX_SPEC_BYTES, MAX_PLAN_BYTES, MAX_CONFIG_BYTES, MAX_DEPTH,
                                 MAX_NODES, TMP_TAG, OLD_TAG, InputError, _kind, read_bytes_limited,
                                 read_text_limited, _nesting, check_tree, load_json, _no_constant, load_yaml,
                                 read_json, read_yaml)  # noqa: F401  (re-exported)
from planner.safeio.write import (_refuse_special, _parent_ok, check_output_file, _is_empty_dir,
                                  check_output_dir, dir_lock, _fsync_path, _fsync_tree, atomic_write_text,
                                  _HELD, make_temp_dir, _release, discard_temp_dir, _dead, clean_stale,
                                  atomic_replace_dir, write_dir_atomic,
                                  reject_special_output)  # noqa: F401  (re-exported)
