#!/usr/bin/env python3
"""infer.py -- the Python front end of 'ensemble infer' (infer/python.c):
reads a component's Python source with Python's own 'ast' module and
writes it, lowered to the small language of infer/code.h, for the C
interpreter to run.  It decides nothing about communication: it only
says what the code is, names resolved (which module a call goes to,
which names are a function's own).

    python3 infer.py FILE

Output, one program: 'PY 1', then each function 'F NAME NPARAMS PARAM...
NODE', then the module's code 'M NODE'.  A node is its kind, line, column,
operator, integer, text and key, its parts a b c d ('-' when absent), the
number of its list and the list.  Texts are 'LENGTH:BYTES' (UTF-8) or '-'.
A file Python cannot parse: 'E LINE COL TEXT'.
"""

import ast
import os
import re
import sys

BINOPS = {
    ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.FloorDiv: "//",
    ast.Mod: "%f", ast.Pow: "**", ast.LShift: "<<", ast.RShift: ">>",
    ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^",
}
CMPOPS = {
    ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">",
    ast.GtE: ">=", ast.Is: "==", ast.IsNot: "!=",
}
UNOPS = {ast.Not: "!", ast.USub: "-", ast.UAdd: "+", ast.Invert: "~"}


def text(s):
    """A text as 'LENGTH:BYTES', or '-' for none."""
    if s is None:
        return "-"
    b = s.encode("utf-8", "surrogateescape")
    return "%d:%s" % (len(b), s)


class Node:
    """A node of the lowered program."""

    def __init__(self, kind, at, op="0", i=0, s=None, key=None):
        self.kind, self.op, self.i, self.s, self.key = kind, op, i, s, key
        self.line = getattr(at, "lineno", 0) or 0
        self.col = (getattr(at, "col_offset", -1) or 0) + 1
        self.a = self.b = self.c = self.d = None
        self.list = []

    def write(self, out):
        """Write it, its parts and its list in prefix order."""
        out.append("%s %d %d %s %d %s %s" % (
            self.kind, self.line, self.col, self.op, self.i, text(self.s),
            text(self.key)))
        for p in (self.a, self.b, self.c, self.d):
            if p is None:
                out.append("-")
            else:
                p.write(out)
        out.append("%d" % len(self.list))
        for k in self.list:
            k.write(out)


def assigned(body):
    """The names a function's code binds, and those it declares global."""
    names, glob = set(), set()
    for node in body:
        for n in ast.walk(node):
            if isinstance(n, (ast.Global, ast.Nonlocal)):
                glob.update(n.names)
            elif isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                names.add(n.id)
            elif isinstance(n, ast.arg):
                names.add(n.arg)
            elif isinstance(n, ast.ExceptHandler) and n.name:
                names.add(n.name)
            elif isinstance(n, (ast.Import, ast.ImportFrom)):
                for a in n.names:
                    names.add((a.asname or a.name).split(".")[0])
            elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef,
                                ast.ClassDef)) and n not in body:
                names.add(n.name)
    return names - glob


class Lower:
    """Lowers one module."""

    def __init__(self, src, where):
        self.src = src
        self.where = where      # the source's directory: its own modules
        self.lines = None       # its lines, when a message needs them
        self.modules = {}       # a name bound to a module: its full name
        self.imported = {}      # a name bound by 'from M import x': M.x
        self.funcs = {}         # the module's functions by name
        self.methods = set()    # the names of classes' methods
        self.local = None       # the current function's own names

    def seg(self, node):
        """The source text of a node, for messages (as
        ast.get_source_segment, which splits the whole source anew at
        every call)."""
        if self.lines is None:
            self.lines, at = [], 0
            for m in re.finditer(r"\r\n|\r|\n", self.src):
                self.lines.append(self.src[at:m.end()])
                at = m.end()
            self.lines.append(self.src[at:])
        try:
            first, last = node.lineno - 1, node.end_lineno - 1
            a, b = node.col_offset, node.end_col_offset
            if first == last:
                s = self.lines[first].encode()[a:b].decode()
            else:
                s = (self.lines[first].encode()[a:].decode() +
                     "".join(self.lines[first + 1:last]) +
                     self.lines[last].encode()[:b].decode())
        except (AttributeError, IndexError, TypeError, UnicodeError):
            s = None
        return " ".join(s.split()) if s else None

    def imports(self, stmt):
        """Record what an import binds."""
        if isinstance(stmt, ast.Import):
            for a in stmt.names:
                if a.asname:
                    self.modules[a.asname] = a.name
                else:
                    self.modules[a.name.split(".")[0]] = a.name.split(".")[0]
        elif isinstance(stmt, ast.ImportFrom) and stmt.module:
            for a in stmt.names:
                full = stmt.module + "." + a.name
                self.imported[a.asname or a.name] = full
                if stmt.module == "mpi4py" or stmt.module == "os.path":
                    self.modules[a.asname or a.name] = full

    def dotted(self, node):
        """The full name of a.b.c when a is a module, else None."""
        if isinstance(node, ast.Name):
            if self.local is not None and node.id in self.local:
                return None
            if node.id in self.modules:
                return self.modules[node.id]
            if node.id in self.imported:
                return self.imported[node.id]
            return None
        if isinstance(node, ast.Attribute):
            base = self.dotted(node.value)
            if base is not None:
                return base + "." + node.attr
        return None

    def own(self, full):
        """Whether a dotted name is of a module of the program's own,
        beside its source (not followed: it is another file)."""
        top = full.split(".")[0]
        return top != "ensemble" and (
            os.path.isfile(os.path.join(self.where, top + ".py")) or
            os.path.isfile(os.path.join(self.where, top, "__init__.py")))

    def func(self, full, at):
        """A function of a module, named by its full name; op 1 for one of
        the program's own modules."""
        return Node("FUNC", at, "1" if self.own(full) else "0", s=full)

    def var(self, name, at):
        """A variable: the function's own, or the module's."""
        glob = self.local is None or name not in self.local
        return Node("VAR", at, "1" if glob else "0", s=name, key=name)

    # ---- expressions ----

    def expr(self, e):
        """An expression."""
        if isinstance(e, ast.Constant):
            v = e.value
            if isinstance(v, bool):
                return Node("INT", e, i=int(v))
            if isinstance(v, int):
                if -(1 << 62) < v < (1 << 62):
                    return Node("INT", e, i=v)
                return Node("UNKNOWN", e, s="an integer too large")
            if isinstance(v, str):
                return Node("STR", e, s=v)
            if v is None:
                return Node("NULL", e)
            if isinstance(v, float):
                return Node("FLOAT", e)
            return Node("UNKNOWN", e, s="a constant of type %s"
                        % type(v).__name__)
        if isinstance(e, ast.Name):
            if self.local is None or e.id not in self.local:
                if e.id in self.imported:
                    return self.func(self.imported[e.id], e)
                if e.id in self.modules:
                    return Node("UNKNOWN", e, s="the module %s"
                                % self.modules[e.id])
                if e.id in self.funcs:
                    return Node("FUNC", e, s=e.id, key=e.id)
            return self.var(e.id, e)
        if isinstance(e, ast.Attribute):
            full = self.dotted(e)
            if full is not None:
                if full == "sys.argv":
                    return Node("VAR", e, "1", s=full, key=full)
                return self.func(full, e)
            n = Node("MEMBER", e, s=e.attr)
            n.a = self.expr(e.value)
            return n
        if isinstance(e, ast.Call):
            n = Node("CALL", e)
            if isinstance(e.func, ast.Name) and e.func.id in self.funcs and (
                    self.local is None or e.func.id not in self.local):
                n.a = Node("FUNC", e.func, s=e.func.id, key=e.func.id)
            elif isinstance(e.func, ast.Name) and e.func.id in (
                    "int", "str", "len", "range", "print", "min", "max",
                    "list", "exit", "quit", "float", "abs", "bool", "tuple",
                    "enumerate", "zip", "sorted", "sum", "open", "isinstance",
                    "round") and (self.local is None or
                                  e.func.id not in self.local):
                n.a = Node("FUNC", e.func, s=e.func.id)
            else:
                n.a = self.expr(e.func)
            for a in e.args:
                if isinstance(a, ast.Starred):
                    n.list.append(Node("UNKNOWN", a, s="arguments unpacked"))
                else:
                    n.list.append(self.expr(a))
            return n
        if isinstance(e, ast.BinOp):
            if isinstance(e.op, ast.Div):
                return Node("UNKNOWN", e, s="a true division (a float)")
            op = BINOPS.get(type(e.op))
            if op is None:
                return Node("UNKNOWN", e, s="an operator not read")
            n = Node("BINARY", e, op)
            n.a, n.b = self.expr(e.left), self.expr(e.right)
            return n
        if isinstance(e, ast.UnaryOp):
            n = Node("UNARY", e, UNOPS[type(e.op)])
            n.a = self.expr(e.operand)
            return n
        if isinstance(e, ast.BoolOp):
            op = "&&" if isinstance(e.op, ast.And) else "||"
            n = self.expr(e.values[0])
            for v in e.values[1:]:
                m = Node("BINARY", e, op)
                m.a, m.b = n, self.expr(v)
                n = m
            return n
        if isinstance(e, ast.Compare):
            n = None
            left = e.left
            for op, right in zip(e.ops, e.comparators):
                o = CMPOPS.get(type(op))
                if o is None:
                    return Node("UNKNOWN", e, s="a test of membership")
                m = Node("BINARY", e, o)
                m.a, m.b = self.expr(left), self.expr(right)
                if n is None:
                    n = m
                else:
                    k = Node("BINARY", e, "&&")
                    k.a, k.b = n, m
                    n = k
                left = right
            return n
        if isinstance(e, ast.IfExp):
            n = Node("COND", e)
            n.a, n.b, n.c = self.expr(e.test), self.expr(e.body), \
                self.expr(e.orelse)
            return n
        if isinstance(e, ast.Subscript):
            if isinstance(e.slice, ast.Slice):
                return Node("UNKNOWN", e, s="a slice")
            n = Node("INDEX", e)
            n.a, n.b = self.expr(e.value), self.expr(e.slice)
            return n
        if isinstance(e, (ast.List, ast.Tuple)):
            n = Node("LIST", e)
            n.list = [self.expr(x) for x in e.elts]
            return n
        if isinstance(e, ast.JoinedStr):
            n = Node("FSTR", e)
            for v in e.values:
                if isinstance(v, ast.Constant):
                    n.list.append(Node("STR", v, s=str(v.value)))
                elif isinstance(v, ast.FormattedValue) and v.format_spec \
                        is None and v.conversion in (-1, 115):
                    n.list.append(self.expr(v.value))
                else:
                    n.list.append(Node("UNKNOWN", v, s="a formatted part"))
            return n
        if isinstance(e, ast.NamedExpr):
            n = Node("ASSIGN", e)
            n.a, n.b = self.expr(e.target), self.expr(e.value)
            return n
        return Node("UNKNOWN", e, s="a %s" % type(e).__name__)

    def target(self, t):
        """An assignment's target."""
        if isinstance(t, (ast.Tuple, ast.List)):
            n = Node("LIST", t)
            n.list = [self.target(x) for x in t.elts]
            return n
        if isinstance(t, ast.Starred):
            return Node("UNKNOWN", t, s="a starred target")
        return self.expr(t)

    # ---- statements ----

    def block(self, stmts, at):
        """A list of statements."""
        n = Node("BLOCK", at)
        for s in stmts:
            k = self.stmt(s)
            if k is not None:
                n.list.append(k)
        return n

    def stmt(self, s):
        """A statement, or None for one that does nothing here."""
        if isinstance(s, ast.Expr):
            n = Node("EXPR", s)
            n.a = self.expr(s.value)
            return n
        if isinstance(s, ast.Assign):
            v = self.expr(s.value)
            for t in reversed(s.targets):
                n = Node("ASSIGN", s)
                n.a, n.b = self.target(t), v
                v = n
            e = Node("EXPR", s)
            e.a = v
            return e
        if isinstance(s, ast.AugAssign):
            op = BINOPS.get(type(s.op))
            n = Node("ASSIGN", s, op if op else "0")
            n.a = self.target(s.target)
            n.b = self.expr(s.value) if op else \
                Node("UNKNOWN", s, s="an operator not read")
            e = Node("EXPR", s)
            e.a = n
            return e
        if isinstance(s, ast.AnnAssign):
            if s.value is None:
                return None
            n = Node("ASSIGN", s)
            n.a, n.b = self.target(s.target), self.expr(s.value)
            e = Node("EXPR", s)
            e.a = n
            return e
        if isinstance(s, ast.If):
            n = Node("IF", s, s=self.seg(s.test) and
                     "if %s" % self.seg(s.test))
            n.a = self.expr(s.test)
            n.b = self.block(s.body, s)
            if s.orelse:
                n.c = self.block(s.orelse, s.orelse[0])
            return n
        if isinstance(s, ast.While):
            if s.orelse:
                return Node("UNSUPP", s, s="a 'while' with 'else'")
            n = Node("WHILE", s, s=self.seg(s.test))
            n.a = self.expr(s.test)
            n.b = self.block(s.body, s)
            return n
        if isinstance(s, ast.For):
            if s.orelse:
                return Node("UNSUPP", s, s="a 'for' with 'else'")
            n = Node("FOREACH", s, s=self.seg(s.iter))
            n.a = self.target(s.target)
            n.c = self.expr(s.iter)
            n.b = self.block(s.body, s)
            return n
        if isinstance(s, ast.Break):
            return Node("BREAK", s)
        if isinstance(s, ast.Continue):
            return Node("CONTINUE", s)
        if isinstance(s, ast.Return):
            n = Node("RETURN", s)
            if s.value is not None:
                n.a = self.expr(s.value)
            return n
        if isinstance(s, ast.Pass):
            return None
        if isinstance(s, ast.Raise):
            n = Node("EXPR", s)
            n.a = Node("CALL", s)
            n.a.a = Node("FUNC", s, s="raise")
            return n
        if isinstance(s, ast.Assert):
            n = Node("IF", s, s="assert %s" % self.seg(s.test))
            n.a = Node("UNARY", s, "!")
            n.a.a = self.expr(s.test)
            n.b = Node("BLOCK", s)
            r = Node("EXPR", s)
            r.a = Node("CALL", s)
            r.a.a = Node("FUNC", s, s="raise")
            n.b.list.append(r)
            return n
        if isinstance(s, ast.Try) or type(s).__name__ == "TryStar":
            n = Node("TRY", s, str(len(s.handlers)))
            n.b = self.block(s.body + s.orelse, s)
            for h in s.handlers:
                n.list.append(self.block(h.body, h))
            if s.finalbody:
                n.c = self.block(s.finalbody, s.finalbody[0])
            return n
        if isinstance(s, ast.With):
            n = Node("BLOCK", s)
            for item in s.items:
                e = Node("EXPR", item.context_expr)
                if item.optional_vars is not None:
                    a = Node("ASSIGN", item.context_expr)
                    a.a = self.target(item.optional_vars)
                    a.b = self.expr(item.context_expr)
                    e.a = a
                else:
                    e.a = self.expr(item.context_expr)
                n.list.append(e)
            n.list.append(self.block(s.body, s))
            return n
        if isinstance(s, (ast.Import, ast.ImportFrom)):
            self.imports(s)
            return None
        if isinstance(s, (ast.Global, ast.Nonlocal, ast.Delete)):
            return None
        if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return Node("UNSUPP", s, s="a function defined in a function")
        if isinstance(s, ast.ClassDef):
            return None
        return Node("UNSUPP", s, s="a '%s' statement" % type(s).__name__)

    def function(self, f, key, out):
        """A function of the module (or a class's method)."""
        self.local = assigned([f])
        self.local.discard(f.name)
        params = [a.arg for a in f.args.posonlyargs + f.args.args]
        body = self.block(f.body, f)
        self.local = None
        out.append("F %s %d %s" % (text(key), len(params),
                                   " ".join(text(p) for p in params)))
        body.write(out)

    def module(self, tree):
        """The whole module: its functions, then its code."""
        out = ["PY 1"]
        for s in tree.body:
            if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.funcs[s.name] = s
            elif isinstance(s, (ast.Import, ast.ImportFrom)):
                self.imports(s)
        for s in tree.body:
            if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.function(s, s.name, out)
            elif isinstance(s, ast.ClassDef):
                for m in s.body:
                    if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        self.function(m, s.name + "." + m.name, out)
        body = self.block([s for s in tree.body if not isinstance(
            s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))], tree)
        body.line, body.col = 1, 1
        out.append("M")
        body.write(out)
        return out


def main():
    """Read the file named, write its program."""
    if len(sys.argv) != 2:
        print("usage: infer.py FILE", file=sys.stderr)
        return 2
    try:
        with open(sys.argv[1], "rb") as f:
            data = f.read()
        src = data.decode("utf-8", "surrogateescape")
        tree = ast.parse(data, filename=sys.argv[1])
    except SyntaxError as e:
        print("E %d %d %s" % (e.lineno or 0, e.offset or 0, text(e.msg)))
        return 0
    except (OSError, ValueError) as e:
        print("E 0 0 %s" % text(str(e)))
        return 0
    out = Lower(src, os.path.dirname(os.path.abspath(sys.argv[1]))).module(
        tree)
    sys.stdout.write("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
