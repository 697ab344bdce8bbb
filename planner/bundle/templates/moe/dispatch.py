"""Dispatch tokens to the ranks owning their experts and combine the results.

Experts are split contiguously over the EP group: ep rank j owns experts
[j*El, (j+1)*El). Splits are uneven: counts are exchanged first, on the
device; the split sizes then reach the host in one copy, the only host sync of
the layer. With etp > 1 every expert's FFN is split over the etp group: the
etp peers gather each other's received rows, each computes its FFN slice
(partial sums), and the partial outputs are summed back to the rank that
received the rows. Dropped assignments (capacity) go to a bucket E that is
sorted last and never sent.
"""
import torch
import torch.distributed as dist

from comms import all_to_all, gather_uneven, reduce_scatter_uneven


def expert_counts(flat_e, buckets: int):
    """Rows per bucket [buckets] (int64) without a host sync (no bincount)."""
    return torch.zeros(buckets, dtype=torch.int64, device=flat_e.device).scatter_add_(
        0, flat_e, torch.ones_like(flat_e))


def _to_host(t, balanced: int):
    """t.tolist(); under --dry-run's fake tensors the values are unknown, so
    every count is the balanced one (n * k / E rows per expert and source)."""
    from torch._subclasses.fake_tensor import FakeTensor
    return [balanced] * t.numel() if isinstance(t, FakeTensor) else t.tolist()


def dispatch_combine(t, w, sel, experts_fn, experts: int, ex):
    # experts_fn(x [m, H] grouped by local expert, rows per local expert (list)) -> [m, H]
    """t: [n, H] tokens, w/sel: [n, k] routing weights / expert ids (dropped
    assignments have sel == -1). ex: the stage's expert groups (mesh.experts[s]).
    Returns [n, H] = sum_k w * expert(t)."""
    n, k = sel.shape
    El, E = experts // ex.ep_size, experts
    flat_e = torch.where(sel >= 0, sel, E).flatten()                  # [n*k], dropped -> bucket E
    order = torch.argsort(flat_e, stable=True)                        # group rows by expert, dropped last
    tok_sorted = torch.div(order, k, rounding_mode="floor")           # token of each sorted row
    w_sorted = w.flatten()[order]
    counts = expert_counts(flat_e, E + 1)[:E]                         # [E] kept rows per expert

    # rows[j, e]: rows from ep rank j for my local expert e (device, no sync yet)
    if ex.ep_size == 1:
        rows = counts.view(1, El)
    else:
        rows = torch.empty_like(counts)
        dist.all_to_all_single(rows, counts, group=ex.ep_group)
        rows = rows.view(ex.ep_size, El)
    peer_rows = rows                                                 # [etp * sources, El]
    if ex.etp_size > 1:
        parts = [torch.empty_like(rows) for _ in range(ex.etp_size)]
        dist.all_gather(parts, rows.contiguous(), group=ex.etp_group)
        peer_rows = torch.cat(parts)
    # the one host sync: every split size this layer needs
    host = _to_host(torch.cat([counts, rows.flatten(), peer_rows.flatten()]), n * k // E)
    in_splits = [sum(host[j * El:(j + 1) * El]) for j in range(ex.ep_size)]
    rows_h = host[E:E + rows.numel()]
    out_splits = [sum(rows_h[j * El:(j + 1) * El]) for j in range(rows.shape[0])]
    peer_h = host[E + rows.numel():]
    sources = rows.shape[0]
    sizes = [sum(peer_h[p * sources * El:(p + 1) * sources * El]) for p in range(ex.etp_size)]
    kept = sum(in_splits)
    tok_sorted, w_sorted = tok_sorted[:kept], w_sorted[:kept]

    x_send = t[tok_sorted]                                            # [m, H]
    x_in = x_send if ex.ep_size == 1 else all_to_all(x_send, ex.ep_group, in_splits, out_splits)
    x_all = x_in if ex.etp_size == 1 else gather_uneven(x_in, ex.etp_group, sizes, ex.etp_rank)
    # local experts: rows arrive by (etp peer, source, expert); regroup by expert (one local
    # expert: already grouped, no copy; the cost model counts these copies only when El > 1)
    per_block = [peer_h[b * El:(b + 1) * El] for b in range(len(peer_h) // El)]
    per_expert = [sum(blk[e] for blk in per_block) for e in range(El)]
    if El == 1:
        y_all = experts_fn(x_all, per_expert)
    else:
        row_expert = torch.tensor([e for blk in per_block for e, c in enumerate(blk) for _ in range(c)],
                                  dtype=torch.int64)                  # [m] local expert of each row
        perm = torch.argsort(row_expert.to(t.device), stable=True)
        y_all = experts_fn(x_all[perm], per_expert)[torch.argsort(perm)]
    y_in = y_all if ex.etp_size == 1 else reduce_scatter_uneven(y_all, ex.etp_group, sizes, ex.etp_rank)
    y_send = y_in if ex.ep_size == 1 else all_to_all(y_in, ex.ep_group, out_splits, in_splits)
    return combine(y_send * w_sorted.unsqueeze(1).to(y_send.dtype), tok_sorted, n)   # [n, H]


class _Combine(torch.autograd.Function):
    """Forward: y[n, H] = sum of the weighted expert rows of each token (index_add).
    Backward: each row's gradient is its token's. Saves only the index, where autograd's
    index_add keeps its [rows, H] source as well (2H bytes per routed row)."""

    @staticmethod
    def forward(ctx, rows, index, n: int):
        ctx.save_for_backward(index)
        return rows.new_zeros((n,) + tuple(rows.shape[1:])).index_add_(0, index, rows)

    @staticmethod
    def backward(ctx, grad):
        index, = ctx.saved_tensors
        return grad.index_select(0, index), None, None


def combine(rows, index, n: int):
    return _Combine.apply(rows, index, n)
