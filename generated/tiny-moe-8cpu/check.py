"""--check: the same step in one process, no parallelism, compared with this rank's shards.

Every rank runs the (tiny) reference itself and compares the slices it holds;
together the ranks cover every element of every parameter.
"""
import torch
import torch.distributed as dist
import torch.nn.functional as F

import layout
from blocks import update_router_bias
from dataparallel import full
from cp.layout import local_token_index
from reference import Reference


def capacity_groups(train):
    """The tokens each rank routes, per micro-batch, as indices into the
    flattened [B*S] batch, in that rank's order (capacity is applied per group)."""
    L, S, mb, nmb = layout.LAYOUT, train["seq"], train["micro_batch"], train["num_microbatches"]
    groups = []
    for d in range(L["dp"]):
        for i in range(nmb):
            rows = torch.arange(mb) + (d * nmb + i) * mb
            for c in range(L["cp"]):
                pos = local_token_index(S, c // L["cp_ulysses"], L["cp_ring"], c % L["cp_ulysses"], L["cp_ulysses"])
                flat = (rows[:, None] * S + pos[None, :]).flatten()          # [mb * S/cp], row-major
                groups += list(flat.chunk(L["tp"]))                          # each tp rank routes 1/tp
    return groups


class Checker:
    def __init__(self, cfg, train, seed, data, mesh, tol, adam):
        self.mesh, (self.rtol, self.atol) = mesh, tol
        self.ref = Reference(cfg, seed)
        self.ref.capacity_groups = capacity_groups(train)
        lr, betas, wd, eps = adam
        opt = torch.optim.AdamW(self.ref.parameters(), lr=lr, betas=betas, weight_decay=wd, eps=eps)
        logits = self.ref(data[:, :-1])                         # [B, S, V]
        self.loss = F.cross_entropy(logits.flatten(0, 1), data[:, 1:].flatten())
        self.loss.backward()
        named = self.ref.named()
        self.grads = {n: p.grad.clone() for n, p in named.items()}
        opt.step()
        for i, b in self.ref.bias.items():
            if cfg["router_bias"]:
                update_router_bias(b, self.ref.counts[i])
        self.params = {n: p.detach().clone() for n, p in named.items()}
        self.checked, self.failed, self.worst, self.lines = 0, 0, 0.0, []
        self.loss_par = None

    def _cmp(self, what, got, want):
        got = got.detach().float().cpu()
        self.checked += 1
        err = (got - want).abs().max().item() if got.numel() else 0.0
        self.worst = max(self.worst, err)
        if not torch.allclose(got, want, rtol=self.rtol, atol=self.atol):
            self.failed += 1
            if len(self.lines) < 5:
                self.lines.append(f"rank {self.mesh.rank}: {what} differs, max abs err {err:.3e}")

    @staticmethod
    def _slice(t, meta):
        for dim, start, n in meta.slices:
            t = t.narrow(dim, start, n)
        return t

    def compare_loss(self, loss):
        if loss is None:
            return
        total = loss.detach().float().clone()
        dist.all_reduce(total, group=self.mesh.dp_cp_group)
        total = total.cpu()
        self.loss_par = total.item()
        self._cmp("loss", total, self.loss.detach())

    def compare_grads(self, pm):
        # full(): gathers FSDP2 shards (collective; same order on every rank of a stage)
        for p, m in pm:
            self._cmp(f"grad {m.full_name}", full(p.grad), self._slice(self.grads[m.full_name], m))

    def compare_params(self, pm, moes):
        for p, m in pm:
            self._cmp(f"param {m.full_name} after step", full(p), self._slice(self.params[m.full_name], m))
        for m in moes:
            i = int(m.prefix.split(".")[1])              # "layers.{i}.moe."
            self._cmp(f"router bias of layer {i}", m.bias, self.ref.bias[i])

    def report(self) -> bool:
        dev = self.mesh.device
        stats = torch.tensor([self.checked, self.failed], dtype=torch.float64, device=dev)
        dist.all_reduce(stats)
        worst = torch.tensor([self.worst, -1.0 if self.loss_par is None else self.loss_par], device=dev)
        dist.all_reduce(worst, op=dist.ReduceOp.MAX)
        for line in self.lines:
            print("  " + line, flush=True)
        dist.barrier()
        ok = stats[1].item() == 0
        if self.mesh.rank == 0:
            verdict = "PASS" if ok else "FAIL"
            print(f"CHECK {verdict}: loss {worst[1].item():.6f} (reference {self.loss.item():.6f}); "
                  f"{int(stats[0])} comparisons (loss, gradients, parameters after one AdamW step, "
                  f"router biases) on all ranks, {int(stats[1])} mismatched; max abs err "
                  f"{worst[0].item():.3e} (rtol {self.rtol}, atol {self.atol})", flush=True)
        return ok
