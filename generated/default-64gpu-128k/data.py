"""Token data: a memory-mapped file of token ids, read by step (so a resumed run
reads exactly what the straight run would have).

File format (little-endian): a 16-byte header, then the tokens.
  bytes 0..7   magic b"FOLDTOK1"
  bytes 8..11  uint32 bytes per token (2: uint16, 4: uint32)
  bytes 12..15 uint32 the end-of-document (EOD) token id plus one; 0: a flat stream
               without document boundaries
  bytes 16..   the token ids, one document after another, each ended by the EOD id
tools/convert.py writes it from a text file of ids, raw bytes or a .npy array;
write_tokens below from any integer array.
"""
import os
import sys
import zlib

import numpy as np
import torch

MAGIC = b"FOLDTOK1"
HEADER = 16
CHUNK = 1 << 24          # tokens scanned at a time when validating


def write_tokens(path, tokens, eod=None) -> None:
    """Write token ids (any int array) in the format above; uint16 when they fit. eod: the
    end-of-document id the stream uses (None: no documents). Written to a temporary name,
    then renamed: no half-written file under `path`."""
    tokens = np.asarray(tokens).ravel()
    if tokens.size and (tokens.min() < 0 or tokens.max() >= 2 ** 32):
        raise ValueError(f"{path}: token ids must lie in [0, 2^32), found {tokens.min()}..{tokens.max()}")
    top = max(int(tokens.max(initial=0)), -1 if eod is None else int(eod))
    dtype = np.uint16 if top < 2 ** 16 else np.uint32
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "wb") as f:
        f.write(MAGIC + np.array([np.dtype(dtype).itemsize, 0 if eod is None else int(eod) + 1],
                                 dtype="<u4").tobytes())
        f.write(tokens.astype(np.dtype(dtype).newbyteorder("<")).tobytes())
    os.replace(tmp, path)


def digest(path, span: int = 1 << 24) -> str:
    """The file's identity for a checkpoint's trajectory: its size and a CRC-32 of its first
    and last `span` bytes (all of a file up to 2 * span; a few reads of a file of any size)."""
    size = os.path.getsize(path)
    with open(path, "rb") as f:
        crc = zlib.crc32(f.read(span))
        if size > span:
            f.seek(max(span, size - span))
            crc = zlib.crc32(f.read(span), crc)
    return f"{size}:{crc:08x}"


class TokenFile:
    def __init__(self, path):
        self.path = path
        with open(path, "rb") as f:
            head = f.read(HEADER)
        if head[:8] != MAGIC:
            raise ValueError(f"{path}: not a token file (magic {head[:8]!r}, expected {MAGIC!r})")
        size, eod1 = (int(v) for v in np.frombuffer(head[8:16], dtype="<u4"))
        if size not in (2, 4):
            raise ValueError(f"{path}: header bytes 8..11 give {size} bytes per token, expected 2 or 4")
        self.eod = eod1 - 1 if eod1 else None
        self.tokens = np.memmap(path, dtype={2: "<u2", 4: "<u4"}[size], mode="r", offset=HEADER)

    def first_out_of_range(self, vocab: int):
        """(offset, id) of the first token id >= vocab, in tokens from the data start; or None."""
        for lo in range(0, len(self.tokens), CHUNK):
            part = self.tokens[lo:lo + CHUNK]
            if part.size and int(part.max()) >= vocab:
                i = int(np.argmax(part >= vocab))
                return lo + i, int(part[i])
        return None

    def batch(self, step: int, rows: int, seq: int, first_row: int = 0, n_rows=None) -> torch.Tensor:
        """Token ids [n_rows, seq + 1]: rows first_row.. of step `step`'s `rows`
        sequences; sequence j of step t starts at ((t * rows + j) * seq) mod (N - seq - 1)."""
        n_rows = rows - first_row if n_rows is None else n_rows
        span = len(self.tokens) - seq - 1
        if span <= 0:
            raise ValueError(f"token file holds {len(self.tokens)} tokens, a sequence needs {seq + 1}")
        out = np.empty((n_rows, seq + 1), dtype=np.int64)
        for i in range(n_rows):
            start = ((step * rows + first_row + i) * seq) % span
            out[i] = self.tokens[start:start + seq + 1]
        return torch.from_numpy(out)


def open_checked(path, vocab: int, eod=None, doc_mask: bool = False):
    """The token file, checked before any process group: a readable header, every id below the
    vocabulary, an EOD id where --doc-mask needs one. (TokenFile, None) or (None, one-line error).
    The id check reads every token once (memory-mapped, CHUNK at a time): one pass over the file,
    made by the launchers' --preflight; they set FOLDPLAN_DATA_CHECKED=1 for the ranks, which then
    skip it (a rank started without a launcher makes the pass itself)."""
    try:
        tf = TokenFile(path)
    except (OSError, ValueError) as e:
        return None, f"--data: {e}"
    if eod is not None:
        tf.eod = eod
    bad = None if os.environ.get("FOLDPLAN_DATA_CHECKED") == "1" else tf.first_out_of_range(vocab)
    if bad is not None:
        off, tid = bad
        return None, (f"--data {path}: token {off} (byte {HEADER + off * tf.tokens.itemsize}) is id {tid}, "
                      f"not below the model's vocabulary of {vocab}")
    if tf.eod is not None and not 0 <= tf.eod < vocab:
        return None, f"--data {path}: the EOD id {tf.eod} is not below the model's vocabulary of {vocab}"
    if doc_mask and tf.eod is None:
        return None, (f"--doc-mask: {path} names no EOD token (header bytes 12..15 are 0; tools/convert.py "
                      f"--eod, or train.py --eod ID)")
    return tf, None


def data_refusal(args, layout):
    """The --data file checked (data.open_checked) and --doc-mask's layout, before any process
    group: one line on rank 0 and exit 1 on every rank; else the opened token file (or None)."""
    L, vocab = layout.LAYOUT, (layout.TINY if args.tiny or args.check else layout.MODEL)["vocab"]
    tf, why = None, None
    if args.doc_mask and (L["pp"] > 1 or L["cp_ring"] > 1):
        why = (f"--doc-mask runs with pp 1 and no ring CP (this plan: pp {L['pp']}, cp_ring {L['cp_ring']}): "
               f"the pipeline schedule passes only activations between stages, and the ring's causal "
               f"blocks take no document mask")
    elif args.data:
        tf, why = open_checked(args.data, vocab, args.eod, args.doc_mask)
    elif args.doc_mask and args.eod is None:
        why = "--doc-mask: synthetic tokens have no documents unless --eod ID names the id that ends one"
    if args.eod is not None and not 0 <= args.eod < vocab:
        why = f"--eod {args.eod}: not below the model's vocabulary of {vocab}"
    if why:      # rank 0 says it; the others leave it time to, before torchrun stops the world
        if int(os.environ.get("RANK", 0)) == 0:
            print(why, file=sys.stderr, flush=True)
        else:
            import time
            time.sleep(2)
        sys.exit(1)
    return tf
