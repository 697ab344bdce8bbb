"""A plan as a toy layout file."""


def render(plan, name: str) -> dict[str, str]:
    L, t = plan.layout, plan.problem.train
    fold = L.stages[0].fold
    body = [f"world = {L.world}", f"tp = {L.tp}", f"cp = {L.cp}", f"dp = {L.dp}", f"pp = {L.pp}",
            f"etp = {fold[0]}", f"ep = {fold[1]}", f"edp = {fold[2]}", f"micro_batch = {L.micro_batch}",
            f"global_batch = {t.global_batch_tokens // t.seq}", f"seq = {t.seq}", f"sharding = {L.sharding}",
            f"master = {L.master}"]
    return {f"{name}.toy": "\n".join(body) + "\n"}
