"""The tokenizer of the launch-script reader: text -> statements -> words -> parts.

Quotes, escapes, ``$...`` expansions (kept as parts, expanded later by ``shell.Shell``),
comments, arrays (``NAME=( ... )``), statement separators and here-documents
(``<<EOF`` / ``<<-EOF`` / ``<<'EOF'``: the body is read raw, line by line, up to the
delimiter, so an apostrophe inside it is text, not a quote). Runs of ordinary
characters are taken with one regular-expression match, so the scan is linear in
the length of a line (a 1 MB one-line script is read in well under a second).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MARK = "\x00"  # brackets an unresolved expansion; never in a decoded text file
JOIN = "\x01"  # a backslash-newline inside double quotes: removed from values, kept for line numbers
ASSIGN = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)(\+?)=")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_PLAIN = re.compile(r"[^\s\\;&|()$'\"`#<]+")  # characters with no meaning outside quotes
_PLAIN_DQ = re.compile(r'[^"\\$`\n]+')  # ... inside double quotes
_PLAIN_INLINE = re.compile(r"[^$]+")
_HEREDOC = re.compile(r"<<(-?)[ \t]*(?:'([^'\n]*)'|\"([^\"\n]*)\"|\\?([^\s;&|()<>]+))")
MAX_NESTING = 64  # ${ ${ ${ ... deep expansions


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
class Heredoc:
    """The body of a ``<<DELIM`` redirection; ``literal`` when the delimiter was quoted (no expansion)."""

    body: str
    line: int  # line of the body's first line
    literal: bool


@dataclass(frozen=True)
class Field:
    """One argument after expansion, and the 1-based line it was written on."""

    text: str
    line: int


class ShellSyntaxError(ValueError):
    def __init__(self, line: int, what: str):
        self.line, self.what = line, what
        super().__init__(f"line {line}: {what}")


class Statement(list):
    """The words of one statement, plus the here-documents attached to it."""

    heredocs: tuple[Heredoc, ...] = ()


class Scanner:
    def __init__(self, text: str, line: int = 1):
        self.s, self.i, self.line = text, 0, line
        self.statements: list[Statement] = []
        self.stmt = Statement()
        self.parts: list[Part] | None = None  # None = between words
        self.word_line = line
        self.array_depth = 0  # inside NAME=( ... )
        self.paren = 0  # literal parentheses inside the current word: ([0]*3+[1]*58)
        self.pending: list[tuple[str, bool, bool]] = []  # here-docs to read after this line
        self.run_text: list[str] | None = None  # the text part being built, in pieces
        self.run_quoted = False

    # -- word and statement boundaries --
    def _add(self, kind: str, text: str, quoted: bool) -> None:
        if self.parts is None:
            self.parts, self.word_line, self.paren = [], self.line, 0
        if kind == "text" and self.run_text is not None and self.run_quoted == quoted:
            self.run_text.append(text)  # joined once, at the end of the run: linear, not quadratic
            return
        self._flush()
        if kind == "text":
            self.run_text, self.run_quoted = [text], quoted
        else:
            self.parts.append(Part(kind, text, quoted))

    def _flush(self) -> None:
        if self.run_text is not None:
            self.parts.append(Part("text", "".join(self.run_text), self.run_quoted))
            self.run_text = None

    def _end_word(self, **flags: bool) -> None:
        if self.parts is not None:
            self._flush()
            self.stmt.append(Word(self.parts, self.word_line, **flags))
        self.parts = None

    def _end_statement(self) -> None:
        self._end_word()
        if self.stmt and self.array_depth == 0:
            self.statements.append(self.stmt)
            self.stmt = Statement()

    # -- the scan --
    def run(self) -> list[Statement]:
        s = self.s
        while self.i < len(s):
            c = s[self.i]
            m = _PLAIN.match(s, self.i)
            if m:
                self._add("text", m.group(), False)
                self.i = m.end()
            elif c == "\\":
                self._backslash()
            elif c in " \t\r":
                self._end_word()
                self.i += 1
            elif c == "\n":
                self._newline()
            elif c == "#" and self.parts is None:
                end = s.find("\n", self.i)
                self.i = len(s) if end < 0 else end
            elif c == "&" and (s[self.i - 1 : self.i] in (">", "<") or s[self.i + 1 : self.i + 2] == ">"):
                self._add("text", c, False)  # a redirection (2>&1, >&2, &>file), not a separator
                self.i += 1
            elif c in ";&|":
                self._end_statement()
                self.i += 2 if s[self.i : self.i + 2] in (";;", "&&", "||") else 1
            elif c == "<":
                self._less()
            elif c == "(":
                self._open_paren()
            elif c == ")":
                self._close_paren()
            elif c == "$":
                self._dollar(quoted=False)
            elif c == "'":
                self._single_quoted()
            elif c == '"':
                self._double_quoted()
            elif c == "`":
                self._backquoted(quoted=False)
            else:
                self._add("text", c, False)
                self.i += 1
        self._end_statement()
        if self.pending:
            raise ShellSyntaxError(self.line, f"here-document delimited by {self.pending[0][0]!r} has no body")
        if self.stmt:  # an array that was never closed
            raise ShellSyntaxError(self.stmt[0].line, "unterminated array: missing ')'")
        return self.statements

    def _backslash(self) -> None:
        s = self.s
        if s.startswith("\\\r\n", self.i):
            self.i, self.line = self.i + 3, self.line + 1
        elif s[self.i + 1 : self.i + 2] == "\n":
            self.i, self.line = self.i + 2, self.line + 1  # line continuation
        else:
            self._add("text", s[self.i + 1 : self.i + 2], True)
            self.i += 2

    def _newline(self) -> None:
        stmt = self.stmt
        self._end_statement()
        self.i, self.line = self.i + 1, self.line + 1
        if self.pending:
            docs = tuple(self._heredoc_body(*p) for p in self.pending)
            self.pending = []
            target = stmt if stmt or not self.statements else self.statements[-1]
            target.heredocs = target.heredocs + docs

    def _less(self) -> None:
        """``<<DELIM`` opens a here-document; ``<<<`` and ``<`` are ordinary redirections."""
        s = self.s
        m = _HEREDOC.match(s, self.i)
        if m and not s.startswith("<<<", self.i):
            self._end_word()
            delim = next(g for g in m.groups()[1:] if g is not None)
            self.pending.append((delim, m.group(1) == "-", m.group(4) is None))
            self.i = m.end()
            return
        self._add("text", "<", False)
        self.i += 1

    def _heredoc_body(self, delim: str, strip_tabs: bool, literal: bool) -> Heredoc:
        s, start_line, out = self.s, self.line, []
        while self.i < len(s):
            end = s.find("\n", self.i)
            end = len(s) if end < 0 else end
            row = s[self.i : end]
            self.i, self.line = min(end + 1, len(s)), self.line + 1
            if strip_tabs:
                row = row.lstrip("\t")
            if row.rstrip("\r") == delim:
                return Heredoc("\n".join(out) + ("\n" if out else ""), start_line, literal)
            out.append(row)
        raise ShellSyntaxError(start_line - 1, f"here-document delimited by {delim!r} is not closed")

    def _single_quoted(self) -> None:
        s = self.s
        end = s.find("'", self.i + 1)
        if end < 0:
            raise ShellSyntaxError(self.line, "unterminated single quote")
        body = s[self.i + 1 : end]
        self._add("text", body, True)
        self.line += body.count("\n")
        self.i = end + 1

    def _backquoted(self, quoted: bool) -> None:
        s = self.s
        end = s.find("`", self.i + 1)
        if end < 0:
            raise ShellSyntaxError(self.line, "unterminated backquote")
        self._add("cmd", s[self.i + 1 : end], quoted)
        self.line += s.count("\n", self.i, end)
        self.i = end + 1

    def _open_paren(self) -> None:
        if self.parts is not None:
            self._flush()
        parts = self.parts
        if parts and len(parts) == 1 and parts[0].kind == "text" and not parts[0].quoted \
                and ASSIGN.match(parts[0].text) and parts[0].text.endswith("="):
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
        """Index of the ``close`` that matches ``s[start] == open_`` (quotes skipped inside ``(``)."""
        depth, j, s = 0, start, self.s
        while j < len(s):
            ch = s[j]
            if ch == open_:
                depth += 1
                if depth > MAX_NESTING:
                    raise ShellSyntaxError(self.line, f"expansions nested more than {MAX_NESTING} deep")
            elif ch == close:
                depth -= 1
                if depth == 0:
                    return j
            elif ch in "'\"" and open_ == "(":
                q = s.find(ch, j + 1)
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
                m = _PLAIN_INLINE.match(self.s, self.i)
                self._add("text", m.group(), True)
                self.i = m.end()
        if self.parts is not None:
            self._flush()
        return self.parts or []

    def _double_quoted(self) -> None:
        s = self.s
        self.i += 1
        if self.parts is not None:
            self._flush()
        before = (id(self.parts), len(self.parts or ()))
        opened = self.line
        while True:
            if self.i >= len(s):
                raise ShellSyntaxError(opened, "unterminated double quote")
            c = s[self.i]
            m = _PLAIN_DQ.match(s, self.i)
            if m:
                self._add("text", m.group(), True)
                self.i = m.end()
            elif c == '"':
                self.i += 1
                if self.parts is not None:
                    self._flush()
                if before == (id(self.parts), len(self.parts or ())):
                    self._add("text", "", True)  # "" is a word even when empty
                return
            elif c == "\\" and s[self.i + 1 : self.i + 2] in ('"', "\\", "$", "`", "\n"):
                if s[self.i + 1] == "\n":
                    self._add("text", JOIN, True)
                    self.line += 1
                else:
                    self._add("text", s[self.i + 1], True)
                self.i += 2
            elif c == "$":
                self._dollar(quoted=True)
            elif c == "`":
                self._backquoted(quoted=True)
            else:  # a newline, or a backslash that escapes nothing
                if c == "\n":
                    self.line += 1
                self._add("text", c, True)
                self.i += 1


def tokenize(text: str, line: int = 1) -> list[Statement]:
    return Scanner(text, line).run()


def tokenize_word(text: str, line: int) -> list[Part]:
    """The parts of one word's worth of text (used for ``${V:-word}``); spaces kept as text."""
    parts: list[Part] = []
    words = [w for s in tokenize(text, line) for w in s]
    for k, w in enumerate(words):
        if k:
            parts.append(Part("text", " ", True))
        parts.extend(w.parts)
    return parts


_PIECE = re.compile("(?:[^\\s" + MARK + JOIN + "]|" + MARK + "[^" + MARK + "]*" + MARK + ")+")


def split_words(value: str, line: int) -> list[tuple[str, int]]:
    """Word splitting on whitespace, each piece with its line (``line`` is where ``value`` starts).

    An unresolved marker stays inside one piece; a backslash-newline inside double
    quotes (kept as ``JOIN``) separates pieces and counts as a line. Linear in ``value``.
    """
    out, pos, at = [], 0, line
    for m in _PIECE.finditer(value):
        at += value.count("\n", pos, m.start()) + value.count(JOIN, pos, m.start())
        pos = m.start()
        out.append((m.group(), at))
    return out


def unescape_heredoc(body: str) -> str:
    """An unquoted here-document's body as the inner shell receives it: ``\\$`` -> ``$`` (and ``\\``, ``\\```)."""
    return re.sub(r"\\([$`\\])", r"\1", body)
