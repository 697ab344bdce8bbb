"""Just enough of a POSIX/bash shell to read a training launch script.

Launch scripts build their arguments out of variables, defaults and arrays:

    TP=${TP:-2}
    GPT_ARGS=(
        --num-layers 32          # Mixtral 8x7B
        --tensor-model-parallel-size $TP
    )
    torchrun --nnodes $NNODES --nproc_per_node $GPUS_PER_NODE pretrain_gpt.py "${GPT_ARGS[@]}"

``interpret(text, env, args=...)`` runs the assignments (``VAR=value``, ``export``, ``${V:-d}``,
``$((a*b))`` arithmetic, arrays, ``+=``, ``set --``, ``shift``) and returns every other command as a
list of ``Field`` (text + the source line it was written on), word-split as bash splits it: an
unquoted ``${A[@]}`` or ``$ARGS`` splits each element on whitespace, a quoted ``"${A[@]}"`` keeps
one field per element, ``"${A[*]}"`` joins them. Nothing is executed: command substitutions
``$(...)`` and unset variables in a command become *unresolved* markers that ``unresolved(text)``
reports, so the caller decides whether an unknown value matters (it does in
``--tensor-model-parallel-size $TP_SIZE``; not in ``--save $CKPT``). Scripts inside the script are
read too: a here-document fed to ``sbatch``/``bash``/``sh``, ``bash -c "..."``, ``eval``. An ``if``
whose test is simple (``[ -n "$X" ]``, ``[[ $A == b ]]``, ``test $N -gt 1``) runs only the branch it
selects (an unset variable is empty there, as in bash); any other ``if`` runs all its branches, in
text order. Loops run their body once. ``env`` seeds the variables (the caller's environment),
``args`` the positional ones. docs/shell-forms.md lists the forms, each checked against bash."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from planner.shell.arith import ArithOverflow, Unresolved, evaluate
from planner.shell.positional import positional_values, set_or_shift
from planner.shell.words import dash_c as _dash_c, test, unresolved, without_redirections as _without_redirections
from planner.shell.scan import (ASSIGN, JOIN, MARK, Field, Heredoc, Part, Scanner, ShellSyntaxError,
                                Statement, Word, split_words as _split, tokenize, tokenize_word,
                                unescape_heredoc as _unescape)

__all__ = ["Field", "Shell", "ShellSyntaxError", "interpret", "unresolved"]

_DECLARE = {"export", "declare", "local", "readonly", "typeset"}
_KEYWORDS = {"then", "do", "{", "}", "!", "time", "exec", "while", "until", "done", "esac"}
_NOT_LAUNCH = {"echo", "printf", "set", "cd", "mkdir", "rm", "cp", "mv", "cat", "source", ".",
               "exit", "trap", "wait", "sleep", "unset", "shift", "[", "[[", "test", "fi", "done",
               "esac", "return", "ulimit", "pip", "module", "conda", "eval"}  # whose words no program reads
_SHELLS = {"sbatch", "bash", "sh", "zsh", "dash", "srun"}  # a here-document (or -c string) is a script
MAX_DEPTH = 8  # scripts inside scripts (eval of eval ...)
MAX_VALUE = 4 * 2**20  # characters of one variable's value


@dataclass
class Var:
    value: str | list[Field]  # a scalar, or an array of fields
    line: int  # where it was (last) assigned


@dataclass
class Shell:
    """Variables and the commands seen so far. ``env`` seeds variables (the caller's environment)."""

    env: dict[str, str] = field(default_factory=dict)
    vars: dict[str, Var] = field(default_factory=dict)
    commands: list[list[Field]] = field(default_factory=list)
    command_env: list[dict[str, str]] = field(default_factory=list)  # each command's `NAME=value cmd` prefix

    # if/elif/else/fi nesting: (state, a branch was taken); state "run" | "skip" | "both"
    # ("both": the condition could not be decided, so the branch runs and so do the others)
    ifs: list[tuple[str, bool]] = field(default_factory=list)

    depth: int = 0  # scripts inside scripts being run
    pinned: frozenset = frozenset()  # names whose env value stands in for an unresolvable assignment
    args: tuple = ()  # the script's positional arguments ($1 ...), as `bash script.sh ARGS...` gives them
    testing: bool = False  # expanding an if's test: an unset variable is empty, as bash expands it

    def __post_init__(self) -> None:
        for name, value in self.env.items():
            self.vars[name] = Var(str(value), 0)
        self._positional(list(self.args), 0)

    def _positional(self, args: list[str], line: int) -> None:
        self.vars = {n: v for n, v in self.vars.items() if not n.isdigit() or n == "0"}
        self.vars.update({k: Var(v, line) for k, v in positional_values(args, line).items()})

    # -- if / elif / else / fi, decided when the test is simple and its words are known --
    def _branch(self, word: str, cond: bool | None) -> None:
        if word == "fi":
            if self.ifs:
                self.ifs.pop()
            return
        if word == "if":
            outer_skip = any(state == "skip" for state, _ in self.ifs)
            self.ifs.append(("skip", True) if outer_skip else self._decide(cond))
            return
        if not self.ifs:
            return
        state, taken = self.ifs[-1]
        if state == "both":
            return
        if taken:
            self.ifs[-1] = ("skip", True)
        elif word == "else":
            self.ifs[-1] = ("run", True)
        else:  # elif
            self.ifs[-1] = self._decide(cond)

    @staticmethod
    def _decide(cond: bool | None) -> tuple[str, bool]:
        if cond is None:
            return ("both", False)
        return ("run", True) if cond else ("skip", False)

    def _condition(self, words: list[Word]) -> bool | None:
        """``[ -n X ]``, ``[[ X == Y ]]``, ``test X -gt 1`` ...; None when it cannot be decided. An unset
        variable is empty, as bash has it (the starting environment is known): ``[ -n $X ]`` is ``[ -n ]``,
        true; ``[[ ]]`` splits no word (docs/shell-forms.md)."""
        self.testing = True
        try:
            if words and self._literal(words[0]) == "[[":
                args = [self._literal(w) if self._literal(w) is not None else self._join(w) for w in words]
            else:
                args = [f.text for w in words for f in self.fields(w)]
        finally:
            self.testing = False
        if not args:
            return None
        return test(args)

    def run(self, text: str, line: int = 1) -> None:
        if self.depth > MAX_DEPTH:
            raise ShellSyntaxError(line, f"scripts nested more than {MAX_DEPTH} deep (eval / bash -c / heredoc)")
        self.depth += 1
        try:
            for stmt in tokenize(text, line):
                self._statement(stmt)
        finally:
            self.depth -= 1

    def _inner_scripts(self, fields: list[Field], heredocs: tuple[Heredoc, ...]) -> bool:
        """Run the scripts a command carries; True when the command was only a carrier (eval, bash -c)."""
        names = [f.text.rsplit("/", 1)[-1] for f in fields]
        if names and names[0] == "eval":
            self.run(" ".join(f.text for f in fields[1:]), fields[0].line)
            return True
        for k, name in enumerate(names[:-2]):
            if name in ("bash", "sh", "zsh", "dash"):
                script = _dash_c(names, k + 1)       # bash -c, bash -x -c, bash -lc ...
                if script is not None and script < len(fields):
                    self.run(fields[script].text, fields[script].line)
                    return True
        if heredocs and any(n in _SHELLS for n in names[:1]) or (heredocs and "bash" in names):
            for doc in heredocs:
                self.run(doc.body if doc.literal else _unescape(doc.body), doc.line)
            return True
        return False

    def _statement(self, words: Statement) -> None:
        i = 0
        while i < len(words):
            word = self._literal(words[i])
            if word in ("if", "elif"):
                self._branch(word, self._condition(words[i + 1:]))
                return
            if word in ("else", "fi"):
                self._branch(word, None)
            elif word not in _KEYWORDS:
                break
            i += 1
        if any(state == "skip" for state, _ in self.ifs):
            return
        declare = i < len(words) and self._literal(words[i]) in _DECLARE
        if declare:
            i += 1
            while i < len(words) and (self._literal(words[i]) or "").startswith("-"):
                i += 1
        saved: dict[str, Var | None] = {}
        while i < len(words) and self._is_assignment(words[i]):
            name = ASSIGN.match(words[i].parts[0].text).group(1)
            saved.setdefault(name, self.vars.get(name))
            i = self._assign(words, i)
        if declare:
            return  # `export NAME` without a value
        rest = words[i:]
        if not rest:
            return
        # `A=1 B=2 cmd ...`: the assignments hold for this command only (bash scopes them)
        prefix = {n: self.vars[n].value for n in saved if n in self.vars and isinstance(self.vars[n].value, str)}
        try:
            fields = _without_redirections([f for w in rest for f in self.fields(w)])
            if fields and self._inner_scripts(fields, getattr(words, "heredocs", ())):
                return
            now = self.vars["@"].value if isinstance(self.vars.get("@", Var("", 0)).value, list) else []
            after = set_or_shift([f.text for f in fields], [f.text for f in now])
            if after is not None:
                self._positional(after, fields[0].line)
                return
            if fields and fields[0].text.rsplit("/", 1)[-1] not in _NOT_LAUNCH:
                self.commands.append(fields)
                self.command_env.append(prefix)
        finally:
            for n, old in saved.items():
                if old is None:
                    self.vars.pop(n, None)
                else:
                    self.vars[n] = old

    @staticmethod
    def _literal(word: Word) -> str | None:
        if len(word.parts) == 1 and word.parts[0].kind == "text":
            return word.parts[0].text
        return None

    @staticmethod
    def _is_assignment(word: Word) -> bool:
        p = word.parts[0] if word.parts else None
        return bool(p and p.kind == "text" and not p.quoted and ASSIGN.match(p.text))

    def _assign(self, words: list[Word], i: int) -> int:
        word = words[i]
        m = ASSIGN.match(word.parts[0].text)
        name, append = m.group(1), m.group(2) == "+"
        if word.opens_array:
            values: list[Field] = []
            i += 1
            while i < len(words) and not words[i].closes_array:
                values.extend(self.fields(words[i]))
                i += 1
            old = self.vars.get(name)
            if append and old is not None:
                prev = old.value if isinstance(old.value, list) else [Field(old.value, old.line)]
                values = prev + values
            self.vars[name] = Var(values, word.line)
            return i + 1
        first = Part("text", word.parts[0].text[m.end():], True)
        value = self._join(Word([first, *word.parts[1:]], word.line))
        old = self.vars.get(name)
        if append and old is not None:
            if isinstance(old.value, list):
                self.vars[name] = Var(old.value + [Field(value, word.line)], word.line)
                return i + 1
            value = old.value + value
        if name in self.pinned and unresolved(value):
            return i + 1  # the caller's --env NAME=VALUE stands for what the script would compute
        if len(value) > MAX_VALUE:
            raise ShellSyntaxError(word.line, f"${name} grows past {MAX_VALUE // 2**20} MiB")
        self.vars[name] = Var(value, word.line)
        return i + 1

    # -- expansion --
    def _join(self, word: Word) -> str:
        """Expand ``word`` without word splitting (assignment values, ``${V:-default}``)."""
        quoted = Word([Part(p.kind, p.text, True) for p in word.parts], word.line)
        return " ".join(f.text for f in self.expand(quoted))

    def expand(self, word: Word) -> list[Field]:
        """The fields ``word`` expands to, split as bash splits them (see the module docstring)."""
        parts = word.parts
        if len(parts) == 1 and parts[0].kind == "text":
            return [Field(parts[0].text, word.line)]
        out: list[Field] = []
        cur: list[str] | None = None  # the field being built, in pieces (joined once: linear)
        cur_line = word.line
        for p in parts:
            if p.kind == "text":
                if cur is None:
                    cur = []
                cur.append(p.text)
                continue
            value, line = self._value(p, word.line)
            if isinstance(value, list):  # array elements: each its own field, split when unquoted
                pieces = [(f.text, f.line) for f in value] if p.quoted else \
                    [piece for f in value for piece in _split(f.text, f.line)]
            else:
                pieces = [(value, line)] if p.quoted else _split(value, line)
            if not pieces:
                if p.quoted and not isinstance(value, list) and cur is None:
                    cur = []
                continue
            if cur is None:
                cur, cur_line = [], pieces[0][1]
            cur.append(pieces[0][0])
            if len(pieces) == 1:
                continue
            out.append(Field("".join(cur), cur_line))
            out.extend(Field(t, ln) for t, ln in pieces[1:-1])
            cur, cur_line = [pieces[-1][0]], pieces[-1][1]
        if cur is not None:
            out.append(Field("".join(cur), cur_line))
        return out

    def fields(self, word: Word) -> list[Field]:
        """``expand`` for a command's arguments: the backslash-newline marks removed."""
        return [Field(f.text.replace(JOIN, ""), f.line) if JOIN in f.text else f for f in self.expand(word)]

    def _value(self, part: Part, line: int) -> tuple[str | list[Field], int]:
        if part.kind == "cmd":
            return f"{MARK}$({part.text.strip()}){MARK}", line
        if part.kind == "arith":
            return self._arith(part.text, line), line
        return self._parameter(part.text, line)

    def _parameter(self, expr: str, line: int) -> tuple[str | list[Field], int]:
        """``${expr}``: NAME, NAME[@], NAME[i], #NAME, NAME:-word, NAME-word, NAME:=word, NAME:+word, NAME:?msg."""
        if expr.startswith("#") and len(expr) > 1:
            name = expr[1:].split("[")[0]
            var = self.vars.get(name)
            if var is None:
                return f"{MARK}${{{expr}}}{MARK}", line
            n = len(var.value) if isinstance(var.value, list) and "[" in expr else len(str(var.value))
            return str(n), line
        m = re.match(r"^([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])(\[([^\]]*)\])?(:?[-=+?])?(.*)$", expr, re.S)
        if not m:
            return f"{MARK}${{{expr}}}{MARK}", line
        name, index, op, rest = m.group(1), m.group(3), m.group(4), m.group(5)
        if name in ("@", "*") and index is None:
            index = name                               # "$@" splits like "${A[@]}", "$*" joins like "${A[*]}"
        var = self.vars.get(name)
        value: str | list[Field] | None = None
        if var is not None:
            value = var.value
            if index == "*" and isinstance(value, list):
                value = " ".join(f.text for f in value)  # "${A[*]}": one word
            elif index is not None and isinstance(value, list):
                if index != "@":
                    k = self._arith(index, line)
                    value = value[int(k)].text if k.lstrip("-").isdigit() and -len(value) <= int(k) < len(value) else ""
            elif isinstance(value, list):
                value = value[0].text if value else ""  # $A of an array is its first element
            elif index not in (None, "0", "@", "*"):
                value = ""
        empty = value is None or value == "" or value == []
        if op:
            unset_or_empty = empty if op.startswith(":") else value is None
            kind = op[-1]
            if kind in "-=" and unset_or_empty:
                value = self._join(Word(tokenize_word(rest, line), line)) if rest else ""
                if kind == "=":
                    self.vars[name] = Var(value, line)
            elif kind == "+":
                value = "" if unset_or_empty else self._join(Word(tokenize_word(rest, line), line))
            elif kind == "?" and unset_or_empty:
                value = None
        if value is None and self.testing and var is None and op in (None, ":-", "-", ":=", "=", ":+", "+"):
            value = ""                                # an unset variable in an if's test: empty, as bash has it
        if value is None:
            shown = f"${name}" if not index and not op and len(expr) == len(name) else f"${{{expr}}}"
            return f"{MARK}{shown}{MARK}", line
        return value, (var.line if var is not None else line)

    def expand_text(self, text: str, line: int) -> str:
        """``text`` with its ``$...`` expansions replaced (no quotes, no word splitting): a YAML value."""
        pieces = []
        for part in Scanner(text, line).inline():
            value = part.text if part.kind == "text" else self._value(part, line)[0]
            pieces.append(" ".join(f.text for f in value) if isinstance(value, list) else value)
        return "".join(pieces)

    # -- arithmetic: $(( ... )) with + - * / % ** and parentheses, integer semantics --
    def _arith(self, expr: str, line: int) -> str:
        text = self.expand_text(expr, line).replace(JOIN, "").replace("\n", " ")
        if unresolved(text):
            return f"{MARK}$(({expr.strip()})){MARK}"
        try:
            value = evaluate(text, self._arith_name)
        except Unresolved as e:
            return f"{MARK}${e.args[0]}{MARK}"
        except (SyntaxError, ValueError, ZeroDivisionError, TypeError, OverflowError, ArithOverflow,
                RecursionError, MemoryError):
            return f"{MARK}$(({expr.strip()[:60]})){MARK}"
        return str(value)

    def _arith_name(self, name: str) -> int:
        var = self.vars.get(name)
        if var is None:
            raise Unresolved(name)
        text = var.value[0].text if isinstance(var.value, list) and var.value else var.value
        text = str(text).strip()
        if not text:
            return 0
        if unresolved(text):
            raise Unresolved(name)
        if text.lstrip("-").isdigit() and len(text) < 20:
            return int(text)
        value = self._arith(text, var.line)
        if unresolved(value):
            raise Unresolved(name)
        return int(value)


def interpret(text: str, env: dict[str, str] | None = None, pinned: dict[str, str] | None = None,
              args: list[str] | tuple = ()) -> Shell:
    """Run the assignments of ``text``; ``shell.commands`` holds the other commands' fields.

    ``env`` is the environment the script starts with (its assignments replace it);
    ``pinned`` values also start there and are kept where the script assigns a value that
    cannot be resolved (``NUM_GPUS=$(nvidia-smi ... | wc -l)``): the caller knows it.
    ``args`` are the script's positional arguments (``$1`` ..., ``"$@"``).
    """
    sh = Shell(env={**(env or {}), **(pinned or {})}, pinned=frozenset(pinned or ()), args=tuple(args))
    sh.run(text)
    return sh

