"""Which tokens of the sequence a cp rank holds (zig-zag for the ring).

The sequence of S tokens is cut into 2*R chunks (R = cp_ring). Ring rank r holds
chunks r and 2R-1-r (so every rank does the same causal work); that ring-local
sequence of S/R tokens is cut into U = cp_ulysses contiguous pieces, one per
Ulysses rank, so an Ulysses all-to-all gives back the ring-local sequence in order.
"""
import torch


def zigzag_chunks(ring_rank: int, ring_size: int):
    return [ring_rank, 2 * ring_size - 1 - ring_rank]


def local_token_index(seq: int, ring_rank: int, ring_size: int, uly_rank: int, uly_size: int):
    """Global positions [S / (R*U)] of the tokens this cp rank holds, in local order."""
    chunk = seq // (2 * ring_size)
    ring_local = torch.cat([torch.arange(c * chunk, (c + 1) * chunk)
                            for c in zigzag_chunks(ring_rank, ring_size)])
    piece = ring_local.numel() // uly_size
    return ring_local[uly_rank * piece:(uly_rank + 1) * piece]
