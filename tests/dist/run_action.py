"""Run a composite action's steps the way a GitHub runner does, for scripts/test-dist.

    python run_action.py ACTION_DIR WORKSPACE RUNNER_TEMP [NAME=VALUE ...]

Reads ACTION_DIR/action.yml, takes each input from NAME=VALUE or its default, and runs every
`run:` step with `bash --noprofile --norc -eo pipefail FILE` (GitHub's `shell: bash`) in its
`working-directory` (else the workspace), with GitHub's variables: GITHUB_WORKSPACE,
GITHUB_ACTION_PATH, RUNNER_TEMP, RUNNER_OS, a fresh GITHUB_OUTPUT, GITHUB_ENV and GITHUB_PATH per
step (read back afterwards: outputs become `steps.<id>.outputs`, GITHUB_PATH entries go in front
of PATH for the next steps), one GITHUB_STEP_SUMMARY, and INPUT_<NAME> for every input.
`${{ }}` expressions in `env`, `run`, `working-directory`, `if` and the action's outputs are
evaluated: contexts inputs, github (workspace, action_path), runner (temp, os), steps and env,
string literals, ==, !=, !, && and ||, success(), failure(), always(). Anything else is an error, so
a new construct in action.yml fails the test instead of running unevaluated.

Prints one JSON object: {"steps": [{"name", "exit_code", "stdout", "stderr"}], "outputs",
"summary", "path_added"}; exits 0 when every step ran (a failing step stops the run, as on GitHub).
"""

import json
import os
import re
import subprocess
import sys

import yaml

EXPR = re.compile(r"\$\{\{(.*?)\}\}", re.S)
TOKEN = re.compile(r"\s*(?:('(?:[^']|'')*')|(==|!=|&&|\|\||!|\(|\))|([A-Za-z_][\w.-]*(?:\(\))?))")


class Unsupported(Exception):
    pass


def evaluate(text, ctx):
    """A `${{ }}` expression's value (a string or a bool) under the small grammar above."""
    tokens, pos = [], 0
    text = text.strip()
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise Unsupported(f"cannot read expression `{text}` at `{text[pos:]}`")
        tokens.append(m.group(1) or m.group(2) or m.group(3))
        pos = m.end()
    tokens.append(None)
    i = 0

    def peek():
        return tokens[i]

    def take():
        nonlocal i
        i += 1
        return tokens[i - 1]

    def primary():
        t = take()
        if t is None:
            raise Unsupported(f"expression `{text}` ends early")
        if t == "(":
            v = disjunction()
            if take() != ")":
                raise Unsupported(f"unbalanced `(` in `{text}`")
            return v
        if t == "!":
            return not truthy(primary())
        if t.startswith("'"):
            return t[1:-1].replace("''", "'")
        if t in ("success()", "always()"):
            return t == "always()" or not ctx["failed"]
        if t == "failure()":
            return ctx["failed"]
        if t in ("true", "false"):
            return t == "true"
        return lookup(t, ctx)

    def comparison():
        left = primary()
        while peek() in ("==", "!="):
            op, right = take(), primary()
            same = str(left).lower() == str(right).lower()
            left = same if op == "==" else not same
        return left

    def conjunction():
        v = comparison()
        while peek() == "&&":
            take()
            right = comparison()
            v = right if truthy(v) else v
        return v

    def disjunction():
        v = conjunction()
        while peek() == "||":
            take()
            right = conjunction()
            v = v if truthy(v) else right
        return v

    value = disjunction()
    if peek() is not None:
        raise Unsupported(f"unexpected `{peek()}` in `{text}`")
    return value


def truthy(v):
    return bool(v) if not isinstance(v, str) else v != ""


def lookup(name, ctx):
    parts = name.split(".")
    if parts[0] == "inputs" and len(parts) == 2:
        if parts[1] not in ctx["inputs"]:
            raise Unsupported(f"`{name}`: no such input in action.yml")
        return ctx["inputs"][parts[1]]
    if parts[0] == "github" and len(parts) == 2 and parts[1] in ("workspace", "action_path"):
        return ctx["github"][parts[1]]
    if parts[0] == "runner" and len(parts) == 2 and parts[1] in ("temp", "os"):
        return ctx["runner"][parts[1]]
    if parts[0] == "env" and len(parts) == 2:
        return ctx["env"].get(parts[1], "")
    if parts[0] == "steps" and len(parts) == 4 and parts[2] == "outputs":
        return ctx["steps"].get(parts[1], {}).get(parts[3], "")
    raise Unsupported(f"`{name}` is not a context this runner knows")


def substitute(text, ctx):
    def one(m):
        v = evaluate(m.group(1), ctx)
        return ("true" if v else "false") if isinstance(v, bool) else str(v)

    return EXPR.sub(one, str(text))


def condition(text, ctx):
    if text is None:
        return not ctx["failed"]
    m = EXPR.fullmatch(str(text).strip())
    return truthy(evaluate(m.group(1) if m else str(text), ctx))


def read_commands(path):
    """GITHUB_OUTPUT/GITHUB_ENV: `name=value` lines and `name<<DELIM` … `DELIM` blocks."""
    values, lines = {}, open(path, encoding="utf-8").read().splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            name, delim = line.split("<<", 1)
            end = lines.index(delim, i + 1)
            values[name] = "\n".join(lines[i + 1 : end])
            i = end + 1
            continue
        if line:
            name, value = line.split("=", 1)
            values[name] = value
        i += 1
    return values


def main():
    action_dir, workspace, temp = (os.path.abspath(a) for a in sys.argv[1:4])
    given = dict(a.split("=", 1) for a in sys.argv[4:])
    action = yaml.safe_load(open(os.path.join(action_dir, "action.yml"), encoding="utf-8"))
    if action["runs"]["using"] != "composite":
        raise Unsupported("not a composite action")
    declared = action.get("inputs") or {}
    unknown = set(given) - set(declared)
    if unknown:
        raise Unsupported(f"inputs not declared in action.yml: {sorted(unknown)}")
    inputs = {k: str(given.get(k, (v or {}).get("default", ""))) for k, v in declared.items()}
    os.makedirs(temp, exist_ok=True)
    summary = os.path.join(temp, "step_summary.md")
    open(summary, "w").close()
    base = dict(os.environ)
    base.update(
        GITHUB_ACTIONS="true",
        CI="true",
        GITHUB_WORKSPACE=workspace,
        GITHUB_ACTION_PATH=action_dir,
        RUNNER_TEMP=temp,
        RUNNER_OS="Linux",
        GITHUB_STEP_SUMMARY=summary,
    )
    for k, v in inputs.items():
        base["INPUT_" + k.replace(" ", "_").upper()] = v
    ctx = {
        "inputs": inputs,
        "github": {"workspace": workspace, "action_path": action_dir},
        "runner": {"temp": temp, "os": "Linux"},
        "env": base,
        "steps": {},
        "failed": False,
    }
    report, path_added = {"steps": []}, []
    for n, step in enumerate(action["runs"]["steps"]):
        name = step.get("name", f"step {n}")
        if not condition(step.get("if"), ctx):
            report["steps"].append({"name": name, "skipped": True})
            continue
        if "uses" in step:
            raise Unsupported(f"step `{name}` uses an action; this runner runs `run:` steps only")
        if step.get("shell") != "bash":
            raise Unsupported(f"step `{name}`: shell must be bash")
        files = {k: os.path.join(temp, f"{k}_{n}") for k in ("GITHUB_OUTPUT", "GITHUB_ENV", "GITHUB_PATH")}
        for f in files.values():
            open(f, "w").close()
        env = dict(base, **files)
        env.update({k: substitute(v, ctx) for k, v in (step.get("env") or {}).items()})
        env["PATH"] = os.pathsep.join(path_added[::-1] + [base["PATH"]])
        script = os.path.join(temp, f"step_{n}.sh")
        with open(script, "w", encoding="utf-8") as f:
            f.write(substitute(step["run"], ctx))
        cwd = substitute(step.get("working-directory", workspace), ctx)
        p = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", script],
            cwd=os.path.join(workspace, cwd),
            env=env,
            capture_output=True,
            text=True,
        )
        report["steps"].append({"name": name, "exit_code": p.returncode, "stdout": p.stdout, "stderr": p.stderr})
        if "id" in step:
            ctx["steps"][step["id"]] = read_commands(files["GITHUB_OUTPUT"])
        base.update(read_commands(files["GITHUB_ENV"]))
        path_added += [line for line in open(files["GITHUB_PATH"]).read().splitlines() if line]
        if p.returncode != 0:
            ctx["failed"] = True
    report["outputs"] = {k: substitute(v.get("value", ""), ctx) for k, v in (action.get("outputs") or {}).items()}
    report["summary"] = open(summary, encoding="utf-8").read()
    report["path_added"] = path_added
    json.dump(report, sys.stdout, indent=1)


if __name__ == "__main__":
    main()
