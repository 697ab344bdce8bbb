"""Process groups of this job, computed once from layout.GROUPS (picotron style).

Dense view of a stage's ranks: (dp, cp, tp); expert view of the same ranks:
(edp, ep, etp), possibly different in every pipeline stage. Both are also
exposed as torch DeviceMesh views, (pp, dp, cp, tp) and (pp, edp, ep, etp),
and checked to hold the very same ranks as the groups used here.
"""
from types import SimpleNamespace

import torch
import torch.distributed as dist

import layout


class Mesh:
    """Every group and neighbour this rank needs, as plain attributes."""

    def __init__(self, rank: int, device: torch.device):
        L, me = layout.LAYOUT, layout.RANKS[rank]
        self.rank, self.world, self.device = rank, L["world"], device
        # new_group is collective over the world: every rank creates every
        # group, in the same order; each keeps the handles of its own groups.
        self._cache = {}
        mine = {name: self._create_all(layout.GROUPS[name], rank)
                for name in ("tp", "cp", "cp_ulysses", "cp_ring", "dp", "dp_cp", "stage", "pp", "embed")}
        experts = {}
        for s, kinds in layout.GROUPS["experts"].items():
            experts[s] = {k: self._create_all(kinds[k], rank) for k in ("etp", "ep", "edp")}

        self.tp_group, self.tp_ranks = mine["tp"]
        self.tp_size, self.tp_rank = L["tp"], me["tp"]
        self.cp_group, self.cp_ranks = mine["cp"]
        self.cp_size, self.cp_rank = L["cp"], me["cp"]
        # cp = cp_ulysses (inner, stride 1 inside cp) * cp_ring (outer)
        self.cp_uly_group, self.cp_uly_ranks = mine["cp_ulysses"]
        self.cp_uly_size, self.cp_uly_rank = L["cp_ulysses"], me["cp_ulysses"]
        self.cp_ring_group, self.cp_ring_ranks = mine["cp_ring"]
        self.cp_ring_size, self.cp_ring_rank = L["cp_ring"], me["cp_ring"]
        self.cp_send_rank = self.cp_ring_ranks[(self.cp_ring_rank + 1) % self.cp_ring_size]
        self.cp_recv_rank = self.cp_ring_ranks[(self.cp_ring_rank - 1) % self.cp_ring_size]
        self.dp_group, self.dp_ranks = mine["dp"]
        self.dp_size, self.dp_rank = L["dp"], me["dp"]
        self.dp_cp_group, _ = mine["dp_cp"]          # dense gradients reduce here
        self.stage_group, _ = mine["stage"]          # all ranks of this pp rank (dp x cp x tp)
        self.pp_group, self.pp_ranks = mine["pp"]
        self.pp_size, self.pp_rank = L["pp"], me["pp"]
        self.is_first_stage = self.pp_rank == 0
        self.is_last_stage = self.pp_rank == self.pp_size - 1
        self.embed_group, self.embed_ranks = mine["embed"]  # tied embedding: first + last stage
        # Stages (virtual stages when vpp > 1) that run on this rank.
        self.stage_indices = [s["index"] for s in layout.STAGES if s["pp_rank"] == self.pp_rank]
        # Expert view per stage; attribute shortcuts for this rank's first stage.
        self.experts = {}
        for s in self.stage_indices:
            c = me["experts"][s]
            self.experts[s] = SimpleNamespace(
                etp_group=experts[s]["etp"][0], etp_size=c["etp_size"], etp_rank=c["etp"],
                ep_group=experts[s]["ep"][0], ep_ranks=experts[s]["ep"][1],
                ep_size=c["ep_size"], ep_rank=c["ep"],
                edp_group=experts[s]["edp"][0], edp_size=c["edp_size"], edp_rank=c["edp"])
        first = self.experts[self.stage_indices[0]]
        self.ep_group, self.ep_size, self.ep_rank = first.ep_group, first.ep_size, first.ep_rank
        self.edp_group, self.edp_size, self.edp_rank = first.edp_group, first.edp_size, first.edp_rank
        self.etp_group, self.etp_size, self.etp_rank = first.etp_group, first.etp_size, first.etp_rank

    def _create_all(self, groups, rank):
        """Create every group of one family; return (my group, my group's ranks)."""
        mine = (None, None)
        for ranks in groups:
            key = tuple(ranks)
            if key not in self._cache:
                self._cache[key] = dist.new_group(list(ranks))
            if rank in ranks:
                mine = (self._cache[key], list(ranks))
        return mine


def device_meshes(device_type: str, mesh: Mesh):
    """The dense (pp, dp, cp, tp) and expert (pp, edp, ep, etp) DeviceMesh views.

    The expert view is one DeviceMesh when every stage folds its experts the
    same way. Otherwise each stage has its own (edp, ep, etp) view, built from
    this rank's groups (DeviceMesh.from_group, no collective): returned as
    {stage: DeviceMesh} for the stages of this rank. Collective: every rank
    must call it.
    """
    from torch.distributed.device_mesh import DeviceMesh

    dense = DeviceMesh(device_type, torch.tensor(layout.GROUPS["dense_grid"]),
                       mesh_dim_names=("pp", "dp", "cp", "tp"))
    grid = layout.GROUPS["expert_grid"]
    if grid is not None:
        return dense, DeviceMesh(device_type, torch.tensor(grid), mesh_dim_names=("pp", "edp", "ep", "etp"))
    expert = {}
    for s in mesh.stage_indices:
        ex, st = mesh.experts[s], layout.STAGES[s]
        block = layout.LAYOUT["tp"] * layout.LAYOUT["cp"] * layout.LAYOUT["dp"]
        ranks = torch.arange(block).add(st["pp_rank"] * block).view(st["edp"], st["ep"], st["etp"])
        expert[s] = DeviceMesh.from_group([ex.edp_group, ex.ep_group, ex.etp_group], device_type, mesh=ranks,
                                          mesh_dim_names=("edp", "ep", "etp"))
    return dense, expert


def check_device_meshes(mesh: Mesh, dense, expert) -> None:
    """The DeviceMesh views and the groups used for training hold the same ranks."""
    def ranks(dm, dim):
        return sorted(dist.get_process_group_ranks(dm.get_group(dim)))

    assert ranks(dense, "tp") == sorted(mesh.tp_ranks), "dense mesh tp != tp group"
    assert ranks(dense, "cp") == sorted(mesh.cp_ranks), "dense mesh cp != cp group"
    assert ranks(dense, "dp") == sorted(mesh.dp_ranks), "dense mesh dp != dp group"
    assert ranks(dense, "pp") == sorted(mesh.pp_ranks), "dense mesh pp != pp group"
    views = expert if isinstance(expert, dict) else {s: expert for s in mesh.stage_indices}
    for s, dm in views.items():
        assert ranks(dm, "ep") == sorted(mesh.experts[s].ep_ranks), f"expert mesh ep != ep group of stage {s}"
