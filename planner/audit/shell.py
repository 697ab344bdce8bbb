"""Just enough of a POSIX/bash shell to read a training launch script.

Launch scripts build their arguments out of variables, defaults and arrays:

    TP=${TP:-2}
    GPT_ARGS=(
        --num-layers 32          # Mixtral 8x7B
        --tensor-model-parallel-size $TP
    )
    torchrun --nnodes $NNODES --nproc_per_node $GPUS_PER_NODE pretrain_gpt.py "${GPT_ARGS[@]}"

``interpret(text)`` runs the assignments (``VAR=value``, ``export``, ``${V:-d}``,
``$((a*b))`` arithmetic, arrays and ``+=``) and returns every other command as
a list of ``Field`` (text + the source line the text was written on). Nothing
is executed: command substitutions ``$(...)`` and unset variables become
*unresolved* markers that ``unresolved(text)`` reports, so the caller decides
whether an unknown value matters (it does in ``--tensor-model-parallel-size
$TP_SIZE``; it does not in ``--save $CHECKPOINT_DIR``). An ``if`` whose test is
simple (``[ -n "$X" ]``, ``[[ $A == b ]]``, ``test $N -gt 1``) over known values
runs only the branch it selects; any other ``if`` runs all its branches, in
text order. Loops run their body once.
"""

from __future__ import annotations

import ast
import operator
import re
from dataclasses import dataclass, field

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_ASSIGN = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)(\+?)=")
_MARK = "\x00"  # brackets an unresolved expansion; never in a decoded text file
_JOIN = "\x01"  # a backslash-newline inside double quotes: removed from values, kept for line numbers
_UNRESOLVED = re.compile(_MARK + "([^" + _MARK + "]*)" + _MARK)
_DECLARE = {"export", "declare", "local", "readonly", "typeset"}
_KEYWORDS = {"then", "do", "{", "}", "!", "time", "exec", "while", "until", "done", "esac"}
# Commands whose words are not a program's arguments.
_NOT_LAUNCH = {"echo", "printf", "set", "cd", "mkdir", "rm", "cp", "mv", "cat", "source", ".",
               "exit", "trap", "wait", "sleep", "unset", "shift", "[", "[[", "test", "fi", "done",
               "esac", "return", "ulimit", "pip", "module", "conda"}


@dataclass
class Part:
    kind: str  # "text" | "var" (${...} or $NAME) | "arith" ($((...))) | "cmd" ($(...) or `...`)
    text: str
    quoted: bool  # inside "..." or '...': no word splitting of an expansion


@dataclass
class Word:
    parts: list[Part]
    line: int
    opens_array: bool = False  # the word was NAME=( or NAME+=(
    closes_array: bool = False  # the ) that ends an array value


@dataclass(frozen=True)
class Field:
    """One argument after expansion, and the 1-based line it was written on."""

    text: str
    line: int


def unresolved(text: str) -> list[str]:
    """The shell expressions (``$TP_SIZE``, ``$(nproc)``) that could not be resolved in ``text``."""
    return _UNRESOLVED.findall(text)


class ShellSyntaxError(ValueError):
    def __init__(self, line: int, what: str):
        self.line, self.what = line, what
        super().__init__(f"line {line}: {what}")


# ---------------------------------------------------------------------------
# tokenizer: text -> statements -> words -> parts
# ---------------------------------------------------------------------------


class _Scanner:
    def __init__(self, text: str, line: int = 1):
        self.s, self.i, self.line = text, 0, line
        self.statements: list[list[Word]] = []
        self.stmt: list[Word] = []
        self.parts: list[Part] | None = None  # None = between words
        self.word_line = line
        self.array_depth = 0  # inside NAME=( ... )
        self.paren = 0  # literal parentheses inside the current word: ([0]*3+[1]*58)

    # -- word and statement boundaries --
    def _add(self, kind: str, text: str, quoted: bool) -> None:
        if self.parts is None:
            self.parts, self.word_line, self.paren = [], self.line, 0
        if kind == "text" and self.parts and self.parts[-1].kind == "text" and self.parts[-1].quoted == quoted:
            self.parts[-1].text += text
        else:
            self.parts.append(Part(kind, text, quoted))

    def _end_word(self, **flags: bool) -> None:
        if self.parts is not None:
            self.stmt.append(Word(self.parts, self.word_line, **flags))
        self.parts = None

    def _end_statement(self) -> None:
        self._end_word()
        if self.stmt and self.array_depth == 0:
            self.statements.append(self.stmt)
            self.stmt = []

    # -- the scan --
    def run(self) -> list[list[Word]]:
        s = self.s
        while self.i < len(s):
            c = s[self.i]
            if c == "\\":
                if s.startswith("\\\r\n", self.i):
                    self.i, self.line = self.i + 3, self.line + 1
                elif self.i + 1 < len(s) and s[self.i + 1] == "\n":
                    self.i, self.line = self.i + 2, self.line + 1  # line continuation
                else:
                    self._add("text", s[self.i + 1 : self.i + 2], True)
                    self.i += 2
            elif c in " \t\r":
                self._end_word()
                self.i += 1
            elif c == "\n":
                self._end_statement()
                self.i, self.line = self.i + 1, self.line + 1
            elif c == "#" and self.parts is None:
                end = s.find("\n", self.i)
                self.i = len(s) if end < 0 else end
            elif c in ";&|":
                self._end_statement()
                self.i += 2 if s[self.i : self.i + 2] in (";;", "&&", "||") else 1
            elif c == "(":
                self._open_paren()
            elif c == ")":
                self._close_paren()
            elif c == "$":
                self._dollar(quoted=False)
            elif c == "'":
                end = s.find("'", self.i + 1)
                if end < 0:
                    raise ShellSyntaxError(self.line, "unterminated single quote")
                body = s[self.i + 1 : end]
                self._add("text", body, True)
                self.line += body.count("\n")
                self.i = end + 1
            elif c == '"':
                self._double_quoted()
            elif c == "`":
                end = s.find("`", self.i + 1)
                if end < 0:
                    raise ShellSyntaxError(self.line, "unterminated backquote")
                self._add("cmd", s[self.i + 1 : end], False)
                self.line += s.count("\n", self.i, end)
                self.i = end + 1
            else:
                self._add("text", c, False)
                self.i += 1
        self._end_statement()
        if self.stmt:  # an array that was never closed
            raise ShellSyntaxError(self.stmt[0].line, "unterminated array: missing ')'")
        return self.statements

    def _open_paren(self) -> None:
        parts = self.parts
        if parts and len(parts) == 1 and parts[0].kind == "text" and not parts[0].quoted \
                and _ASSIGN.match(parts[0].text) and parts[0].text.endswith("="):
            self._end_word(opens_array=True)  # NAME=( starts an array value
            self.array_depth += 1
        else:
            self._add("text", "(", False)
            self.paren += 1
        self.i += 1

    def _close_paren(self) -> None:
        if self.parts is not None and self.paren > 0:
            self._add("text", ")", False)
            self.paren -= 1
        elif self.array_depth > 0:
            self._end_word()
            self.stmt.append(Word([], self.line, closes_array=True))
            self.array_depth -= 1  # the statement goes on until a newline or ';'
        else:
            self._end_word()  # end of a subshell: nothing to record
        self.i += 1

    def _matching(self, start: int, open_: str, close: str) -> int:
        """Index of the ``close`` that matches ``s[start] == open_``."""
        depth, j, s = 0, start, self.s
        while j < len(s):
            if s[j] == open_:
                depth += 1
            elif s[j] == close:
                depth -= 1
                if depth == 0:
                    return j
            elif s[j] in "'\"" and open_ == "(":
                q = s.find(s[j], j + 1)
                j = q if q > 0 else j
            j += 1
        raise ShellSyntaxError(self.line, f"unterminated {open_!r}")

    def _dollar(self, quoted: bool) -> None:
        s, i = self.s, self.i
        nxt = s[i + 1 : i + 2]
        if s.startswith("$((", i):
            end = self._matching(i + 1, "(", ")")
            body = s[i + 2 : end]  # "(a*b)"
            kind = "arith" if body.startswith("(") and body.endswith(")") else "cmd"
            self._add(kind, body[1:-1] if kind == "arith" else body, quoted)
        elif nxt == "(":
            end = self._matching(i + 1, "(", ")")
            self._add("cmd", s[i + 2 : end], quoted)
        elif nxt == "{":
            end = self._matching(i + 1, "{", "}")
            self._add("var", s[i + 2 : end], quoted)
        elif nxt and (nxt.isalpha() or nxt == "_"):
            m = _NAME.match(s, i + 1)
            end = m.end() - 1
            self._add("var", m.group(), quoted)
        elif nxt and (nxt.isdigit() or nxt in "@*#?$!-"):
            end = i + 1
            self._add("var", nxt, quoted)
        else:
            end = i
            self._add("text", "$", quoted)
        self.line += s.count("\n", i, end + 1)
        self.i = end + 1

    def inline(self) -> list[Part]:
        """The text as parts, expanding only ``$...`` (arithmetic bodies: no words, no quotes)."""
        while self.i < len(self.s):
            if self.s[self.i] == "$":
                self._dollar(quoted=True)
            else:
                self._add("text", self.s[self.i], True)
                self.i += 1
        return self.parts or []

    def _double_quoted(self) -> None:
        s = self.s
        self.i += 1
        before = (id(self.parts), len(self.parts or ()))
        opened = self.line
        while True:
            if self.i >= len(s):
                raise ShellSyntaxError(opened, "unterminated double quote")
            c = s[self.i]
            if c == '"':
                self.i += 1
                if before == (id(self.parts), len(self.parts or ())):
                    self._add("text", "", True)  # "" is a word even when empty
                return
            if c == "\\" and s[self.i + 1 : self.i + 2] in ('"', "\\", "$", "`", "\n"):
                if s[self.i + 1] == "\n":
                    self._add("text", _JOIN, True)
                    self.line += 1
                else:
                    self._add("text", s[self.i + 1], True)
                self.i += 2
            elif c == "$":
                self._dollar(quoted=True)
            elif c == "`":
                end = s.find("`", self.i + 1)
                if end < 0:
                    raise ShellSyntaxError(self.line, "unterminated backquote")
                self._add("cmd", s[self.i + 1 : end], True)
                self.i = end + 1
            else:
                if c == "\n":
                    self.line += 1
                self._add("text", c, True)
                self.i += 1


def tokenize(text: str, line: int = 1) -> list[list[Word]]:
    return _Scanner(text, line).run()


# ---------------------------------------------------------------------------
# expansion and the statement runner
# ---------------------------------------------------------------------------


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

    # if/elif/else/fi nesting: (state, a branch was taken); state "run" | "skip" | "both"
    # ("both": the condition could not be decided, so the branch runs and so do the others)
    ifs: list[tuple[str, bool]] = field(default_factory=list)

    def __post_init__(self) -> None:
        for name, value in self.env.items():
            self.vars[name] = Var(str(value), 0)

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
        """``[ -n X ]``, ``[[ X == Y ]]``, ``test X -gt 1`` ...; ``None`` when it cannot be decided."""
        args = [f.text for w in words for f in self.fields(w)]
        if not args:
            return None
        if args[0] == "test":
            args = args[1:]
        elif args[0] in ("[", "[[") and args[-1] in ("]", "]]"):
            args = args[1:-1]
        else:
            return None
        if any(unresolved(a) for a in args):
            return None
        negate = bool(args) and args[0] == "!"
        args = args[1:] if negate else args
        result: bool | None = None
        if len(args) == 1:
            result = args[0] != ""
        elif len(args) == 2 and args[0] in ("-n", "-z"):
            result = (args[1] != "") == (args[0] == "-n")
        elif len(args) == 3 and args[1] in ("=", "==", "!="):
            result = (args[0] == args[2]) == (args[1] != "!=")
        elif len(args) == 3 and args[1] in ("-eq", "-ne", "-gt", "-lt", "-ge", "-le"):
            try:
                a, b = int(args[0]), int(args[2])
            except ValueError:
                return None
            result = {"-eq": a == b, "-ne": a != b, "-gt": a > b, "-lt": a < b,
                      "-ge": a >= b, "-le": a <= b}[args[1]]
        return None if result is None else result != negate

    # -- running statements --
    def run(self, text: str) -> None:
        for stmt in tokenize(text):
            self._statement(stmt)

    def _statement(self, words: list[Word]) -> None:
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
        while i < len(words) and self._is_assignment(words[i]):
            i = self._assign(words, i)
        if declare:
            return  # `export NAME` without a value
        rest = words[i:]
        if not rest:
            return
        fields = [f for w in rest for f in self.fields(w)]
        if fields and fields[0].text.rsplit("/", 1)[-1] not in _NOT_LAUNCH:
            self.commands.append(fields)

    @staticmethod
    def _literal(word: Word) -> str | None:
        if len(word.parts) == 1 and word.parts[0].kind == "text":
            return word.parts[0].text
        return None

    @staticmethod
    def _is_assignment(word: Word) -> bool:
        p = word.parts[0] if word.parts else None
        return bool(p and p.kind == "text" and not p.quoted and _ASSIGN.match(p.text))

    def _assign(self, words: list[Word], i: int) -> int:
        word = words[i]
        m = _ASSIGN.match(word.parts[0].text)
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
        self.vars[name] = Var(value, word.line)
        return i + 1

    # -- expansion --
    def _join(self, word: Word) -> str:
        """Expand ``word`` without word splitting (assignment values, ``${V:-default}``)."""
        quoted = Word([Part(p.kind, p.text, True) for p in word.parts], word.line)
        return " ".join(f.text for f in self.expand(quoted))

    def expand(self, word: Word) -> list[Field]:
        """The fields ``word`` expands to: unquoted expansions split on whitespace, ``"${A[@]}"`` per element."""
        out: list[Field] = []
        cur: str | None = None  # the field being built
        cur_line = word.line
        for p in word.parts:
            if p.kind == "text":
                cur = (cur or "") + p.text
                continue
            value, line = self._value(p, word.line)
            if isinstance(value, list):  # array elements: each its own field
                if not value:
                    continue
                if cur is None:
                    cur_line = value[0].line
                if len(value) == 1:
                    cur = (cur or "") + value[0].text
                    continue
                out.append(Field((cur or "") + value[0].text, cur_line))
                out.extend(value[1:-1])
                cur, cur_line = value[-1].text, value[-1].line
                continue
            pieces = [(value, line)] if p.quoted else _split(value, line)
            if not pieces:
                if p.quoted:
                    cur = cur or ""
                continue
            if len(pieces) == 1:
                cur = (cur or "") + pieces[0][0]
                continue
            if cur is None:
                cur_line = pieces[0][1]
            out.append(Field((cur or "") + pieces[0][0], cur_line))
            out.extend(Field(t, ln) for t, ln in pieces[1:-1])
            cur, cur_line = pieces[-1]
        if cur is not None:
            out.append(Field(cur, cur_line))
        return out

    def fields(self, word: Word) -> list[Field]:
        """``expand`` for a command's arguments: the backslash-newline marks removed."""
        return [Field(f.text.replace(_JOIN, ""), f.line) for f in self.expand(word)]

    def _value(self, part: Part, line: int) -> tuple[str | list[Field], int]:
        if part.kind == "cmd":
            return f"{_MARK}$({part.text.strip()}){_MARK}", line
        if part.kind == "arith":
            return self._arith(part.text, line), line
        return self._parameter(part.text, line)

    def _parameter(self, expr: str, line: int) -> tuple[str | list[Field], int]:
        """``${expr}``: NAME, NAME[@], NAME[i], #NAME, NAME:-word, NAME-word, NAME:=word, NAME:+word, NAME:?msg."""
        if expr.startswith("#") and len(expr) > 1:
            name = expr[1:].split("[")[0]
            var = self.vars.get(name)
            if var is None:
                return f"{_MARK}${{{expr}}}{_MARK}", line
            n = len(var.value) if isinstance(var.value, list) and "[" in expr else len(str(var.value))
            return str(n), line
        m = re.match(r"^([A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])(\[([^\]]*)\])?(:?[-=+?])?(.*)$", expr, re.S)
        if not m:
            return f"{_MARK}${{{expr}}}{_MARK}", line
        name, index, op, rest = m.group(1), m.group(3), m.group(4), m.group(5)
        var = self.vars.get(name)
        value: str | list[Field] | None = None
        if var is not None:
            value = var.value
            if index is not None and isinstance(value, list):
                if index not in ("@", "*"):
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
        if value is None:
            shown = f"${name}" if not index and not op and len(expr) == len(name) else f"${{{expr}}}"
            return f"{_MARK}{shown}{_MARK}", line
        return value, (var.line if var is not None else line)

    # -- arithmetic: $(( ... )) with + - * / % ** and parentheses, integer semantics --
    def _arith(self, expr: str, line: int) -> str:
        pieces = []
        for part in _Scanner(expr, line).inline():
            value = part.text if part.kind == "text" else self._value(part, line)[0]
            pieces.append(" ".join(f.text for f in value) if isinstance(value, list) else value)
        text = "".join(pieces).replace(_JOIN, "").replace("\n", " ")
        if unresolved(text):
            return f"{_MARK}$(({expr.strip()})){_MARK}"
        try:
            value = _eval_int(ast.parse(text.strip(), mode="eval").body, self._arith_name)
        except _Unresolved as e:
            return f"{_MARK}${e.args[0]}{_MARK}"
        except (SyntaxError, ValueError, ZeroDivisionError, TypeError, OverflowError):
            return f"{_MARK}$(({expr.strip()})){_MARK}"
        return str(value)

    def _arith_name(self, name: str) -> int:
        var = self.vars.get(name)
        if var is None:
            raise _Unresolved(name)
        text = var.value[0].text if isinstance(var.value, list) and var.value else var.value
        text = str(text).strip()
        if not text:
            return 0
        if unresolved(text):
            raise _Unresolved(name)
        return int(self._arith(text, var.line)) if not text.lstrip("-").isdigit() else int(text)


_PIECE = re.compile("(?:[^\\s" + _MARK + _JOIN + "]|" + _MARK + "[^" + _MARK + "]*" + _MARK + ")+")


def _split(value: str, line: int) -> list[tuple[str, int]]:
    """Word splitting on whitespace, each piece with its line (``line`` is where ``value`` starts).

    An unresolved marker stays inside one piece; a backslash-newline inside double
    quotes (kept as ``_JOIN``) separates pieces and counts as a line.
    """
    out = []
    for m in _PIECE.finditer(value):
        before = value[: m.start()]
        out.append((m.group(), line + before.count("\n") + before.count(_JOIN)))
    return out


def tokenize_word(text: str, line: int) -> list[Part]:
    """The parts of one word's worth of text (used for ``${V:-word}``); spaces kept as text."""
    parts: list[Part] = []
    stmts = tokenize(text, line)
    words = [w for s in stmts for w in s]
    for k, w in enumerate(words):
        if k:
            parts.append(Part("text", " ", True))
        parts.extend(w.parts)
    return parts


class _Unresolved(Exception):
    pass


_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
        ast.FloorDiv: operator.floordiv, ast.Div: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow}


def _eval_int(node: ast.AST, lookup) -> int:
    """Evaluate a parsed shell arithmetic expression: ints, names, + - * / % ** and unary minus."""
    if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
        return node.value
    if isinstance(node, ast.Name):
        return lookup(node.id)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        v = _eval_int(node.operand, lookup)
        return -v if isinstance(node.op, ast.USub) else v
    if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
        a, b = _eval_int(node.left, lookup), _eval_int(node.right, lookup)
        if isinstance(node.op, ast.Pow) and (b < 0 or b > 64):
            raise ValueError("exponent out of range")
        if isinstance(node.op, (ast.Div, ast.FloorDiv, ast.Mod)):
            q = abs(a) // abs(b)  # shell division truncates toward zero
            if isinstance(node.op, ast.Mod):
                return a - b * (q if (a < 0) == (b < 0) else -q)
            return q if (a < 0) == (b < 0) else -q
        return _OPS[type(node.op)](a, b)
    raise ValueError(f"unsupported arithmetic: {ast.dump(node)}")


def interpret(text: str, env: dict[str, str] | None = None) -> Shell:
    """Run the assignments of ``text``; ``shell.commands`` holds the other commands' fields."""
    sh = Shell(env=dict(env or {}))
    sh.run(text)
    return sh
