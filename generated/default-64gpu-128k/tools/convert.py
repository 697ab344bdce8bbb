"""Write a token file (data.py's format) without a tokenizer.

  python tools/convert.py IN OUT --eod ID [--from ids|bytes|npy] [--vocab V]

  ids    a text file of whitespace-separated integer ids, one document per line
         (blank lines skipped); the EOD id is appended after every document
  bytes  any file, one document per line: each byte is an id (0..255), the newline
         is dropped, the EOD id (256 or above, so that no byte is mistaken for it)
         ends each document
  npy    a numpy array of ids (.npy): 1-D, written as it is (it holds its EODs
         already), or 2-D, one document per row, EOD appended to each
--from defaults to the input's suffix: .npy -> npy, .txt -> ids, else bytes.
--vocab V refuses, in one line, an id >= V (train.py checks the file again).
Without --eod the file has no document boundaries (a flat stream; no --doc-mask).
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from data import write_tokens  # noqa: E402


def read_ids(path, eod):
    out = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            words = line.split()
            if not words:
                continue
            try:
                out.extend(int(w) for w in words)
            except ValueError:
                bad = next(w for w in words if not w.lstrip("-").isdigit())
                raise ValueError(f"{path}:{n}: {bad!r} is not an integer token id") from None
            if eod is not None:
                out.append(eod)
    return np.asarray(out, dtype=np.int64)


def read_bytes(path, eod):
    if eod is not None and eod < 256:
        raise ValueError(f"--eod {eod}: below 256, a byte value; byte ids need an EOD id of 256 or above")
    with open(path, "rb") as f:
        docs = [np.frombuffer(line, dtype=np.uint8).astype(np.int64) for line in f.read().split(b"\n") if line]
    if eod is None:
        return np.concatenate(docs) if docs else np.zeros(0, dtype=np.int64)
    return np.concatenate([np.append(d, eod) for d in docs]) if docs else np.zeros(0, dtype=np.int64)


def read_npy(path, eod):
    a = np.load(path, allow_pickle=False)
    if not np.issubdtype(a.dtype, np.integer):
        raise ValueError(f"{path}: dtype {a.dtype}, expected integer token ids")
    if a.ndim == 2 and eod is not None:
        a = np.concatenate([a, np.full((a.shape[0], 1), eod, dtype=a.dtype)], axis=1)
    elif a.ndim not in (1, 2):
        raise ValueError(f"{path}: {a.ndim}-D array, expected 1-D (a stream) or 2-D (a document per row)")
    return a.astype(np.int64).ravel()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--eod", type=int, default=None, help="end-of-document id (recorded in the header)")
    ap.add_argument("--from", dest="kind", choices=("ids", "bytes", "npy"), default=None)
    ap.add_argument("--vocab", type=int, default=None, help="refuse ids >= this")
    args = ap.parse_args(argv)
    kind = args.kind or {".npy": "npy", ".txt": "ids"}.get(os.path.splitext(args.input)[1], "bytes")
    try:
        ids = {"ids": read_ids, "bytes": read_bytes, "npy": read_npy}[kind](args.input, args.eod)
        if ids.size and ids.min() < 0:
            i = int(np.argmax(ids < 0))
            raise ValueError(f"{args.input}: token {i} is {int(ids[i])}, a negative id")
        if args.vocab is not None:
            top = max(int(ids.max(initial=0)), -1 if args.eod is None else args.eod)
            if top >= args.vocab:
                i = int(np.argmax(ids >= args.vocab)) if ids.max(initial=0) >= args.vocab else None
                where = f"token {i} is id {int(ids[i])}" if i is not None else f"the EOD id is {args.eod}"
                raise ValueError(f"{args.input}: {where}, not below --vocab {args.vocab}")
        write_tokens(args.output, ids, args.eod)
    except (OSError, ValueError) as e:
        print(f"convert: {e}", file=sys.stderr)
        return 1
    docs = int((ids == args.eod).sum()) if args.eod is not None else 0
    print(f"{args.output}: {ids.size} tokens ({kind}), {docs} documents ended by EOD {args.eod}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
