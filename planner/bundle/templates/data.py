"""Token data: a memory-mapped file of token ids, read by step (so a resumed run
reads exactly what the straight run would have).

File format: 16-byte header, then the tokens.
  bytes 0..7   magic b"FOLDTOK1"
  bytes 8..11  uint32 bytes per token (2: uint16, 4: uint32)
  bytes 12..15 uint32 reserved (0)
"""
import numpy as np
import torch

MAGIC = b"FOLDTOK1"
HEADER = 16


def write_tokens(path, tokens) -> None:
    """Write token ids (any int array) in the format above; uint16 when they fit."""
    tokens = np.asarray(tokens)
    dtype = np.uint16 if tokens.max(initial=0) < 2 ** 16 else np.uint32
    with open(path, "wb") as f:
        f.write(MAGIC + np.array([np.dtype(dtype).itemsize, 0], dtype="<u4").tobytes())
        f.write(tokens.astype(dtype).tobytes())


class TokenFile:
    def __init__(self, path):
        with open(path, "rb") as f:
            head = f.read(HEADER)
        if head[:8] != MAGIC:
            raise ValueError(f"{path}: not a token file (magic {head[:8]!r}, expected {MAGIC!r})")
        size = int(np.frombuffer(head[8:12], dtype="<u4")[0])
        self.tokens = np.memmap(path, dtype={2: np.uint16, 4: np.uint32}[size], mode="r", offset=HEADER)

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
