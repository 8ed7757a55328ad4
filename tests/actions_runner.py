"""A small stand-in for the GitHub Actions runner, enough to run our workflows' jobs in tests.

Steps run in order under `bash --noprofile --norc -eo pipefail`, as the runner runs `run:`
steps; `${{ }}` expressions (contexts, `&&`/`||`/`==`/`!=`/`!`, `always()`, `success()`,
`failure()`) are evaluated in `if:`, `env:` and `with:`; GITHUB_OUTPUT, GITHUB_ENV and
GITHUB_STEP_SUMMARY are files per step, as on a runner. A local action (`uses: ./…`) runs its
composite steps, skipping setup-python and the install (the test's `anchors` is on PATH); other
actions are handed to the test's `actions` callbacks, or only recorded.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

_EXPR = re.compile(r"\$\{\{(.*?)\}\}", re.DOTALL)
_TOKEN = re.compile(
    r"\s*(?:(?P<str>'(?:[^']|'')*')|(?P<op>&&|\|\||==|!=|!|\(|\)|,)"
    r"|(?P<num>\d+(?:\.\d+)?)|(?P<name>[A-Za-z_][\w.\-]*))"
)
_BASH = ["bash", "--noprofile", "--norc", "-eo", "pipefail"]


@dataclass
class Step:
    """What one step did: its outcome, outputs, evaluated env and with, and what it printed."""

    name: str
    outcome: str = "skipped"
    outputs: dict[str, str] = field(default_factory=dict)
    env: dict[str, str] = field(default_factory=dict)
    with_: dict[str, str] = field(default_factory=dict)
    stdout: str = ""
    stderr: str = ""


@dataclass
class Job:
    """A finished job: its steps by position and by id, and the job summary page."""

    steps: list[Step]
    by_id: dict[str, Step]
    summary: str
    failed: bool

    def step(self, name: str) -> Step:
        return next(s for s in self.steps if s.name == name)


Action = Callable[[dict[str, str], Path], dict[str, str] | None]


class Runner:
    def __init__(
        self,
        workspace: Path,
        temp: Path,
        github: dict[str, Any],
        base_env: dict[str, str],
        actions: dict[str, Action] | None = None,
        timeout: float = 120,
    ) -> None:
        self.workspace, self.temp, self.github = workspace, temp, github
        self.timeout = timeout  # seconds for one step
        self.base_env = base_env
        self.actions = actions or {}
        self.exported: dict[str, str] = {}
        self.summary: list[str] = []
        self._n = 0

    # -- expressions -------------------------------------------------------------------------
    def evaluate(self, expr: str, ctx: dict[str, Any]) -> Any:
        code: list[str] = []
        pos, text = 0, expr.strip()
        while pos < len(text):
            m = _TOKEN.match(text, pos)
            if not m or m.end() == pos:
                raise ValueError(f"cannot read expression {text!r} at {pos}")
            pos = m.end()
            if m["str"] is not None:
                code.append(repr(m["str"][1:-1].replace("''", "'")))
            elif m["op"] is not None:
                code.append({"&&": " and ", "||": " or ", "!": " not "}.get(m["op"], m["op"]))
            elif m["num"] is not None:
                code.append(m["num"])
            elif text[pos:].lstrip().startswith("("):
                code.append(f"_fn_{m['name']}")
            else:
                code.append(f"_get({m['name']!r})")
        failed = ctx["_failed"]
        names = {
            "_get": lambda path: self._lookup(path, ctx),
            "_fn_always": lambda: True,
            "_fn_success": lambda: not failed,
            "_fn_failure": lambda: failed,
            "_fn_cancelled": lambda: False,
        }
        return eval("".join(code), {"__builtins__": {}}, names)

    @staticmethod
    def _lookup(path: str, ctx: dict[str, Any]) -> Any:
        if path in ("true", "false", "null"):
            return {"true": True, "false": False, "null": None}[path]
        value: Any = ctx
        for part in path.split("."):
            value = value.get(part) if isinstance(value, dict) else None
        return "" if value is None else value

    def interpolate(self, value: Any, ctx: dict[str, Any]) -> str:
        if isinstance(value, bool):
            return "true" if value else "false"
        text = str(value)
        whole = _EXPR.fullmatch(text.strip())
        if whole:
            return self.interpolate_value(self.evaluate(whole[1], ctx))
        return _EXPR.sub(lambda m: self.interpolate_value(self.evaluate(m[1], ctx)), text)

    @staticmethod
    def interpolate_value(v: Any) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        return "" if v is None else str(v)

    # -- steps -------------------------------------------------------------------------------
    def run_job(self, workflow: dict[str, Any], job: str) -> Job:
        spec = workflow["jobs"][job]
        ctx: dict[str, Any] = {
            "github": self.github,
            "runner": {"temp": str(self.temp)},
            "steps": {},
            "env": {},
            "_failed": False,
        }
        env = {**{k: self.interpolate(v, ctx) for k, v in (workflow.get("env") or {}).items()}}
        env.update({k: self.interpolate(v, ctx) for k, v in (spec.get("env") or {}).items()})
        steps: list[Step] = []
        for raw in spec["steps"]:
            step = self.run_step(raw, ctx, env)
            steps.append(step)
            if raw.get("id"):
                ctx["steps"][raw["id"]] = {"outputs": step.outputs, "outcome": step.outcome}
            if step.outcome == "failure":
                ctx["_failed"] = True
        by_id = {raw["id"]: s for raw, s in zip(spec["steps"], steps) if raw.get("id")}
        return Job(steps, by_id, "".join(self.summary), ctx["_failed"])

    def run_step(self, raw: dict[str, Any], ctx: dict[str, Any], job_env: dict[str, str]) -> Step:
        step = Step(raw.get("name") or raw.get("uses") or raw.get("run", "")[:40])
        cond = str(raw.get("if", "success()"))
        cond = _EXPR.sub(lambda m: m[1], cond)
        if not self.evaluate(cond, ctx):
            return step
        ctx["env"] = {**job_env, **self.exported}
        step.env = {k: self.interpolate(v, ctx) for k, v in (raw.get("env") or {}).items()}
        env = {**self.base_env, **job_env, **self.exported, **step.env}
        if "run" in raw:
            cwd = self.workspace / self.interpolate(raw.get("working-directory", "."), ctx)
            code, step.outputs, step.stdout, step.stderr = self.bash(raw["run"], env, cwd)
            step.outcome = "success" if code == 0 else "failure"
            return step
        step.with_ = {k: self.interpolate(v, ctx) for k, v in (raw.get("with") or {}).items()}
        uses = raw["uses"]
        if uses.startswith("./"):
            ok, step.outputs, step.stdout, step.stderr = self.composite(
                self.workspace / uses, step.with_, env, ctx
            )
            step.outcome = "success" if ok else "failure"
            return step
        callback = self.actions.get(uses.split("@")[0])
        if callback is not None:
            step.outputs = callback(step.with_, self.workspace) or {}
        step.outcome = "success"
        return step

    def composite(
        self, path: Path, given: dict[str, str], env: dict[str, str], outer: dict[str, Any]
    ) -> tuple[bool, dict[str, str], str, str]:
        action = yaml.safe_load((path / "action.yml").read_text(encoding="utf-8"))
        inputs = {k: str(v.get("default", "")) for k, v in action.get("inputs", {}).items()}
        unknown = set(given) - set(inputs)
        assert not unknown, f"{path}: no such inputs {unknown}"
        inputs.update(given)
        ctx: dict[str, Any] = {
            **outer,
            "inputs": inputs,
            "steps": {},
            "github": {**outer["github"], "action_path": str(path)},
            "_failed": False,
        }
        out, err = [], []
        for raw in action["runs"]["steps"]:
            if "uses" in raw or raw.get("name") == "Install anchors":
                continue  # setup-python and the install: the test's anchors is on PATH
            step = self.run_step(raw, ctx, env)
            out.append(step.stdout)
            err.append(step.stderr)
            if raw.get("id"):
                ctx["steps"][raw["id"]] = {"outputs": step.outputs, "outcome": step.outcome}
            if step.outcome == "failure":
                ctx["_failed"] = True
        outputs = {
            k: self.interpolate(v["value"], ctx) for k, v in action.get("outputs", {}).items()
        }
        return not ctx["_failed"], outputs, "".join(out), "".join(err)

    def bash(
        self, script: str, env: dict[str, str], cwd: Path
    ) -> tuple[int, dict[str, str], str, str]:
        self._n += 1
        files = {
            name: self.temp / f"_{name.lower()}_{self._n}"
            for name in ("GITHUB_OUTPUT", "GITHUB_ENV", "GITHUB_STEP_SUMMARY")
        }
        for f in files.values():
            f.write_text("", encoding="utf-8")
        full = {
            **env,
            **{k: str(v) for k, v in files.items()},
            "RUNNER_TEMP": str(self.temp),
            "GITHUB_WORKSPACE": str(self.workspace),
        }
        p = subprocess.run(
            [*_BASH, "-c", script],
            env=full,
            cwd=cwd,
            capture_output=True,
            text=True,
            check=False,
            timeout=self.timeout,
        )
        self.exported.update(_pairs(files["GITHUB_ENV"]))
        self.summary.append(files["GITHUB_STEP_SUMMARY"].read_text(encoding="utf-8"))
        return p.returncode, _pairs(files["GITHUB_OUTPUT"]), p.stdout, p.stderr


def _pairs(path: Path) -> dict[str, str]:
    """`name=value` lines (the only form our scripts write)."""
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        name, sep, value = line.partition("=")
        if sep:
            out[name] = value
    return out


def shim(bin_dir: Path, root: Path, python: str) -> dict[str, str]:
    """An `anchors` on PATH that runs this checkout's code: the environment to run with."""
    bin_dir.mkdir(parents=True, exist_ok=True)
    exe = bin_dir / "anchors"
    exe.write_text(f'#!/bin/sh\nexec "{python}" -m anchors "$@"\n', encoding="utf-8")
    exe.chmod(0o755)
    return {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}", "PYTHONPATH": str(root)}
