"""Dispatch tokens to the ranks owning their experts and combine the results.

Experts are split contiguously over the EP group: ep rank j owns experts
[j*El, (j+1)*El). Splits are uneven: counts are exchanged first. With etp > 1
every expert's FFN is split over the etp group: the etp peers gather each
other's received rows, each computes its FFN slice (partial sums), and the
partial outputs are summed back to the rank that received the rows.
"""
import torch
import torch.distributed as dist

from comms import all_to_all, gather_uneven, reduce_scatter_uneven


def dispatch_combine(t, w, sel, experts_fn, experts: int, ex):
    # experts_fn(x [m, H] grouped by local expert, rows per local expert) -> [m, H]
    """t: [n, H] tokens, w/sel: [n, k] routing weights / expert ids (dropped
    assignments have sel == -1). ex: the stage's expert groups (mesh.experts[s]).
    Returns [n, H] = sum_k w * expert(t)."""
    n, k = sel.shape
    El = experts // ex.ep_size
    flat_e = sel.flatten()                                            # [n*k]
    flat_tok = torch.arange(n, device=t.device).repeat_interleave(k)
    flat_w = w.flatten()
    kept = flat_e >= 0
    flat_e, flat_tok, flat_w = flat_e[kept], flat_tok[kept], flat_w[kept]
    order = torch.argsort(flat_e, stable=True)                        # group rows by expert
    tok_sorted = flat_tok[order]
    x_send = t[tok_sorted]                                            # [m, H]
    counts = torch.bincount(flat_e[order], minlength=experts)         # [E] rows per expert

    # 1. EP all-to-all. rows[j, e]: rows from ep rank j for my local expert e
    if ex.ep_size == 1:
        x_in, rows = x_send, counts.view(1, El)
    else:
        rows = torch.empty_like(counts)
        dist.all_to_all_single(rows, counts, group=ex.ep_group)
        rows = rows.view(ex.ep_size, El)
        in_splits = counts.view(ex.ep_size, El).sum(1).tolist()
        out_splits = rows.sum(1).tolist()
        x_in = all_to_all(x_send, ex.ep_group, in_splits, out_splits)  # by source, then expert
    # 2. ETP: gather the rows of the etp peers (each holds 1/etp of every local expert's FFN)
    if ex.etp_size == 1:
        x_all, rows_all = x_in, rows
    else:
        peer_rows = [torch.empty_like(rows) for _ in range(ex.etp_size)]
        dist.all_gather(peer_rows, rows.contiguous(), group=ex.etp_group)
        sizes = [int(r.sum()) for r in peer_rows]
        x_all = gather_uneven(x_in, ex.etp_group, sizes, ex.etp_rank)
        rows_all = torch.cat(peer_rows)                              # [etp * sources, El]
    # 3. local experts, rows regrouped by expert
    row_expert = torch.arange(El, device=t.device).repeat(rows_all.shape[0]).repeat_interleave(rows_all.flatten())
    perm = torch.argsort(row_expert, stable=True)
    y_all = experts_fn(x_all[perm], rows_all.sum(0).tolist())[torch.argsort(perm)]
    # 4. back: sum the etp partial outputs, then the reverse all-to-all
    y_in = y_all if ex.etp_size == 1 else reduce_scatter_uneven(y_all, ex.etp_group, sizes, ex.etp_rank)
    y_send = y_in if ex.ep_size == 1 else all_to_all(y_in, ex.ep_group, out_splits, in_splits)
    y = torch.zeros_like(t)
    return y.index_add(0, tok_sorted, y_send * flat_w[order].unsqueeze(1))
