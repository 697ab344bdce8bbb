"""Every number of the plan this bundle runs, derived by foldplan's codegen.

Generated from plan.json (plans[0]); do not edit by hand, re-render instead.
The runtime modules read only these names; nothing else holds layout numbers.
"""

# The model as planned (full size).
MODEL = {'name': 'tiny-moe',
 'layers': 6,
 'hidden': 512,
 'heads': 8,
 'kv_heads': 4,
 'head_dim': 64,
 'vocab': 8192,
 'ffn_hidden': 1536,
 'gated': True,
 'tied_embeddings': False,
 'norm': 'rmsnorm',
 'qk_norm': False,
 'attention': 'gqa',
 'is_moe': [False, True, True, True, True, True],
 'experts': 8,
 'top_k': 2,
 'expert_ffn': 1024,
 'shared_ffn': 0,
 'router_score': 'softmax',
 'router_bias': False}

# The same model for `--tiny` / `--check`: same degrees, layers per stage and
# experts; hidden, ffn, vocab and seq shrunk (2*cp | seq, tp*cp_ulysses | heads).
TINY = {'name': 'tiny-moe (tiny)',
 'layers': 6,
 'hidden': 64,
 'heads': 8,
 'kv_heads': 4,
 'head_dim': 8,
 'vocab': 128,
 'ffn_hidden': 64,
 'gated': True,
 'tied_embeddings': False,
 'norm': 'rmsnorm',
 'qk_norm': False,
 'attention': 'gqa',
 'is_moe': [False, True, True, True, True, True],
 'experts': 8,
 'top_k': 2,
 'expert_ffn': 32,
 'shared_ffn': 0,
 'router_score': 'softmax',
 'router_bias': False}

# Training shape: seq, micro_batch, num_microbatches, capacity_factor (None = dropless).
TRAIN = {'seq': 131072, 'micro_batch': 1, 'num_microbatches': 8, 'capacity_factor': None}
TINY_TRAIN = {'seq': 32, 'micro_batch': 1, 'num_microbatches': 2, 'capacity_factor': None}

# Degrees. world == tp * cp * dp * pp; cp == cp_ulysses * cp_ring.
LAYOUT = {'world': 8,
 'tp': 1,
 'cp': 8,
 'dp': 1,
 'pp': 1,
 'vpp': 1,
 'cp_kind': 'ring',
 'cp_ulysses': 1,
 'cp_ring': 8,
 'order': 'tp-cp-dp-pp'}

# One entry per pipeline stage s (virtual stages when vpp > 1; stage s runs on
# pp rank s % pp). layers: the transformer layers of the stage, in order;
# is_moe[i] / recompute[i] belong to layers[i] ("full", "selective" or "none").
STAGES = [{'index': 0,
  'pp_rank': 0,
  'layers': [0, 1, 2, 3, 4, 5],
  'is_moe': [False, True, True, True, True, True],
  'recompute': ['none', 'full', 'full', 'full', 'full', 'full'],
  'etp': 1,
  'ep': 4,
  'edp': 2}]

# RANKS[r]: the coordinates of global rank r on the dense grid.
RANKS = [{'pp': 0,
  'tp': 0,
  'cp': 0,
  'dp': 0,
  'cp_ring': 0,
  'cp_ulysses': 0,
  'experts': {0: {'etp': 0, 'ep': 0, 'edp': 0, 'etp_size': 1, 'ep_size': 4, 'edp_size': 2}}},
 {'pp': 0,
  'tp': 0,
  'cp': 1,
  'dp': 0,
  'cp_ring': 1,
  'cp_ulysses': 0,
  'experts': {0: {'etp': 0, 'ep': 1, 'edp': 0, 'etp_size': 1, 'ep_size': 4, 'edp_size': 2}}},
 {'pp': 0,
  'tp': 0,
  'cp': 2,
  'dp': 0,
  'cp_ring': 2,
  'cp_ulysses': 0,
  'experts': {0: {'etp': 0, 'ep': 2, 'edp': 0, 'etp_size': 1, 'ep_size': 4, 'edp_size': 2}}},
 {'pp': 0,
  'tp': 0,
  'cp': 3,
  'dp': 0,
  'cp_ring': 3,
  'cp_ulysses': 0,
  'experts': {0: {'etp': 0, 'ep': 3, 'edp': 0, 'etp_size': 1, 'ep_size': 4, 'edp_size': 2}}},
 {'pp': 0,
  'tp': 0,
  'cp': 4,
  'dp': 0,
  'cp_ring': 4,
  'cp_ulysses': 0,
  'experts': {0: {'etp': 0, 'ep': 0, 'edp': 1, 'etp_size': 1, 'ep_size': 4, 'edp_size': 2}}},
 {'pp': 0,
  'tp': 0,
  'cp': 5,
  'dp': 0,
  'cp_ring': 5,
  'cp_ulysses': 0,
  'experts': {0: {'etp': 0, 'ep': 1, 'edp': 1, 'etp_size': 1, 'ep_size': 4, 'edp_size': 2}}},
 {'pp': 0,
  'tp': 0,
  'cp': 6,
  'dp': 0,
  'cp_ring': 6,
  'cp_ulysses': 0,
  'experts': {0: {'etp': 0, 'ep': 2, 'edp': 1, 'etp_size': 1, 'ep_size': 4, 'edp_size': 2}}},
 {'pp': 0,
  'tp': 0,
  'cp': 7,
  'dp': 0,
  'cp_ring': 7,
  'cp_ulysses': 0,
  'experts': {0: {'etp': 0, 'ep': 3, 'edp': 1, 'etp_size': 1, 'ep_size': 4, 'edp_size': 2}}}]

# Process groups as lists of global ranks, every group of the job (new_group is
# collective: every rank creates all of them, in this order, and keeps its own).
# Per-stage expert groups are keyed by stage index.
GROUPS = {'tp': [[0], [1], [2], [3], [4], [5], [6], [7]],
 'cp': [[0, 1, 2, 3, 4, 5, 6, 7]],
 'cp_ulysses': [[0], [1], [2], [3], [4], [5], [6], [7]],
 'cp_ring': [[0, 1, 2, 3, 4, 5, 6, 7]],
 'dp': [[0], [1], [2], [3], [4], [5], [6], [7]],
 'dp_cp': [[0, 1, 2, 3, 4, 5, 6, 7]],
 'stage': [[0, 1, 2, 3, 4, 5, 6, 7]],
 'pp': [[0], [1], [2], [3], [4], [5], [6], [7]],
 'embed': [],
 'experts': {0: {'etp': [[0], [1], [2], [3], [4], [5], [6], [7]],
                 'ep': [[0, 1, 2, 3], [4, 5, 6, 7]],
                 'edp': [[0, 4], [1, 5], [2, 6], [3, 7]]}},
 'dense_grid': [[[[0], [1], [2], [3], [4], [5], [6], [7]]]],
 'expert_grid': [[[[0], [1], [2], [3]], [[4], [5], [6], [7]]]]}

# Oldest torch release this bundle supports.
MIN_TORCH = [2, 8]
