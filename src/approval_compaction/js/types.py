"""Types: whether ``js/workaround.d.mts`` declares what ``js/workaround.mjs`` exports.

Two checks, both with the TypeScript pinned in ``js/sdk-test`` against the pinned
``@openai/agents``. ``type_check`` runs ``tsc --noEmit`` over ``js/sdk-test/types-check.ts``,
which uses the workaround as a TypeScript team does (wraps the SDK's compaction session, passes
it to ``run``, reads what it logs). ``declarations`` lists the module's values and the wrapper's
members twice: as Node loads them and as the declarations name them (and any symbol-keyed member
a wrapper around the SDK's own session gets, which no declaration can name).
"""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass
from pathlib import Path

from .. import paths
from .harness import WORKAROUND, NodeError, node_binary

SDK_TEST = paths.ROOT / "js" / "sdk-test"
TYPESCRIPT = SDK_TEST / "node_modules" / "typescript"
DECLARATIONS = paths.ROOT / "js" / "workaround.d.mts"
TIMEOUT = 120.0

# Prints the workaround's value exports and the wrapper's members, at run time and as declared.
_LIST = """
import ts from %(typescript)s;
const mod = await import(%(module)s);
const program = ts.createProgram([%(declarations)s], {
  module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext,
  skipLibCheck: true, noEmit: true, types: [],
});
const checker = program.getTypeChecker();
const file = checker.getSymbolAtLocation(program.getSourceFile(%(declarations)s));
const symbols = checker.getExportsOfModule(file);
const cls = symbols.find((s) => s.name === 'DeferCompactionWhilePending');
const members = checker.getDeclaredTypeOfSymbol(cls).getProperties();
// A session with every method the wrapper forwards: each forwarded name becomes a member.
const session = new Proxy({}, {
  get: (_, key) =>
    key === 'acceptsRunContext' ? true : typeof key === 'string' ? () => null : undefined,
});
const wrapper = new mod.DeferCompactionWhilePending(session);
// Around the SDK's own session: any symbol it copies (a brand) the declarations cannot name.
const { OpenAIResponsesCompactionSession: Compaction } = await import(%(agents)s);
const real = new mod.DeferCompactionWhilePending(new Compaction({ client: {} }));
console.log(JSON.stringify({
  exported: Object.keys(mod),
  declared: symbols.filter((s) => s.flags & ts.SymbolFlags.Value).map((s) => s.name),
  members: [...Object.keys(wrapper),
    ...Object.getOwnPropertyNames(mod.DeferCompactionWhilePending.prototype)]
    .filter((name) => name !== 'constructor'),
  required: members.filter((s) => !(s.flags & ts.SymbolFlags.Optional)).map((s) => s.name),
  optional: members.filter((s) => s.flags & ts.SymbolFlags.Optional).map((s) => s.name),
  symbols: Object.getOwnPropertySymbols(real).map(String),
}));
"""


@dataclass(frozen=True)
class Declarations:
    """The workaround's names as Node loads them and as its declarations name them."""

    exported: frozenset[str]  # the module's exports
    declared: frozenset[str]  # the declarations' value exports (functions, consts, the class)
    members: frozenset[str]  # a wrapper's fields and methods, every optional one forwarded
    required: frozenset[str]  # the class's declared members, not optional
    optional: frozenset[str]  # forwarded only when the wrapped session has them
    symbols: frozenset[str]  # symbol-keyed members of a wrapper around the SDK's own session

    def undeclared(self) -> frozenset[str]:
        """Exports and members the declarations leave out (a symbol-keyed member always: the
        SDK does not export its symbols, so no declaration can name one)."""
        members = self.members - self.required - self.optional
        return (self.exported - self.declared) | members | self.symbols

    def missing(self) -> frozenset[str]:
        """Declared values and required members the module does not have."""
        return (self.declared - self.exported) | (self.required - self.members)


def typescript_installed() -> bool:
    return (TYPESCRIPT / "bin" / "tsc").is_file()


def _tsc(*args: str) -> subprocess.CompletedProcess[str]:
    if not typescript_installed():
        raise NodeError("typescript is not installed in js/sdk-test: run `make js-sdk-test`")
    command = [node_binary(), str(TYPESCRIPT / "bin" / "tsc"), *args]
    try:
        return subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT, check=False)
    except subprocess.TimeoutExpired:
        raise NodeError(f"tsc did not finish in {TIMEOUT:.0f} s") from None


def type_check(project: Path = SDK_TEST / "tsconfig.json") -> list[str]:
    """``tsc --noEmit`` over ``project``: its error lines, none when the types hold."""
    done = _tsc("--noEmit", "--pretty", "false", "-p", str(project))
    errors = [line for line in done.stdout.splitlines() if "error TS" in line]
    if done.returncode != 0 and not errors:
        raise NodeError(f"tsc exited with {done.returncode}: {done.stderr.strip()}")
    return errors


def declarations(module: Path = WORKAROUND) -> Declarations:
    """The names ``module`` exports and the names its ``.d.mts`` beside it declares."""
    if not typescript_installed():
        raise NodeError("typescript is not installed in js/sdk-test: run `make js-sdk-test`")
    script = _LIST % {
        "typescript": json.dumps(str(TYPESCRIPT / "lib" / "typescript.js")),
        "module": json.dumps(module.resolve().as_uri()),
        "declarations": json.dumps(str(module.with_suffix(".d.mts"))),
        "agents": json.dumps(
            (paths.ROOT / "node_modules" / "@openai" / "agents" / "dist" / "index.mjs").as_uri()
        ),
    }
    done = subprocess.run(
        [node_binary(), "--input-type=module", "-e", script],
        capture_output=True, text=True, timeout=TIMEOUT, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        raise NodeError(f"listing the workaround's names failed: {done.stderr.strip()[-500:]}")
    names = json.loads(done.stdout)
    return Declarations(**{key: frozenset(names[key]) for key in Declarations.__annotations__})
