"""Packed documents (train.py --doc-mask): position ids restart at every document, attention
stays inside the document, and no loss is taken across a document boundary.

A row of the token stream holds several documents, each ended by the EOD token (data.py).
Token i of a row belongs to document d = the number of EOD tokens before it, so an EOD
belongs to the document it ends. As Megatron-LM does for packed sequences
(megatron/training/utils.py get_ltor_masks_and_position_ids: reset_position_ids,
reset_attention_mask, eod_mask_loss):
  position   i - (first token of its document)             (RoPE, model.py)
  attention  causal and within the document                (cp/attention.py)
  loss       none where the input token is EOD             (its target opens the next document)

The micro-batch that runs now is set here by the schedule (pipeline.py) and read by the
stage (RoPE tables) and the attention: nothing else in the model's signatures changes, and an
activation recomputed in backward sees the same micro-batch (backward follows forward per
micro-batch when pp == 1, the only layout --doc-mask runs: train.doc_mask_refusal).
"""
import torch

_CURRENT = [None]    # document ids [mb, S] of the running micro-batch, natural token order


def document_ids(tokens, eod: int):
    """[B, S] -> [B, S] int64: the document of each token (EOD tokens end theirs)."""
    is_eod = (tokens == eod).long()
    return torch.cumsum(is_eod, dim=1) - is_eod


def positions_in_document(doc):
    """[B, S] document ids -> [B, S] positions that restart at 0 with every document."""
    S = doc.shape[1]
    idx = torch.arange(S, device=doc.device).expand_as(doc)
    new = torch.ones_like(doc, dtype=torch.bool)
    new[:, 1:] = doc[:, 1:] != doc[:, :-1]
    start = torch.cummax(torch.where(new, idx, torch.zeros_like(idx)), dim=1).values
    return idx - start


def attention_mask(doc):
    """[B, S] document ids -> [B, 1, S, S] bool: key j visible to query i (j <= i, same document)."""
    S = doc.shape[1]
    causal = torch.ones(S, S, dtype=torch.bool, device=doc.device).tril()
    return ((doc[:, :, None] == doc[:, None, :]) & causal)[:, None]


def set_current(doc) -> None:
    _CURRENT[0] = doc


def current():
    return _CURRENT[0]
