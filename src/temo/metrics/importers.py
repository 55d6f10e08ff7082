"""Read results written by other tools into :class:`CellResult` lists.

``taubench``: tau-bench's results file, a JSON list of ``{task_id, trial, reward, info, traj}``
(reward is a float, 1.0 = success). tau-bench has no arms or emotions, so every entry is put in the
``emotion`` arm unless it says otherwise, and the family breakdown is skipped unless entries carry
emotion information (``emotion``, ``info.emotion``, ``info.emotion_condition``,
``info.task.emotion`` ...: a condition id such as ``frustration.cold.high.skeptical``, a fine emotion,
a family, or a dict holding one of these). The reader is tolerant:

* reward >= 1 - 1e-6 is a success; reward <= -1 + 1e-6 also marks the cell unsatisfied;
* an entry whose ``info`` has an ``error`` and whose trajectory is empty (what tau-bench writes when
  a task crashed), or whose reward is null, is an infrastructure error: a missing cell;
* unsatisfied also when ``info`` says so (``user_unsatisfied`` true, a termination reason mentioning
  "unsatisfied") or a user message in ``traj`` contains ``###UNSATISFIED###``; else not;
* a dict with a list under ``results``/``simulations``/``episodes`` is read like a list, and
  ``reward_info.reward`` stands in for a missing ``reward`` (tau2-bench shape);
* a missing ``trial`` is numbered by order of appearance per task.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

from ..core.taxonomy import FAMILIES, FAMILY_OF
from .summary import SUCCESS_TOL, CellResult

IMPORT_FORMATS: tuple[str, ...] = ("taubench",)
DEFAULT_IMPORT_DOMAIN = "imported"
UNSATISFIED_TOKEN = "###UNSATISFIED###"
_NEUTRAL_ARM_NAMES = {"neutral", "no_emotion", "no-emotion", "noemotion", "none", "baseline", "control"}


class ImportFormatError(ValueError):
    """The file cannot be read in the requested format (message is one line)."""


@dataclass
class ImportResult:
    cells: list[CellResult]
    warnings: list[str] = field(default_factory=list)
    entries: int = 0
    has_emotion: bool = False


def family_of_label(value: Any) -> Optional[str]:
    """The emotion family named by a label: a condition id, fine emotion, family, or dict with one."""
    if isinstance(value, dict):
        for key in ("family", "emotion_family", "emotion", "condition", "id", "condition_id", "fine_emotion"):
            if key in value:
                fam = family_of_label(value[key])
                if fam:
                    return fam
        return None
    if not isinstance(value, str):
        return None
    text = value.strip().lower()
    if not text:
        return None
    head = text.split(".")[0].strip()
    for candidate in (head, text):
        if candidate in FAMILY_OF:
            return FAMILY_OF[candidate]
        if candidate in FAMILIES:
            return candidate
    return None


def _emotion_label(entry: dict[str, Any], info: dict[str, Any]) -> Any:
    task = info.get("task") if isinstance(info.get("task"), dict) else {}
    for holder in (entry, info, task):
        for key in ("emotion", "emotion_condition", "condition", "emotion_family", "family"):
            if holder.get(key) not in (None, ""):
                return holder[key]
    return None


def _domain_of(entry: dict[str, Any], info: dict[str, Any]) -> Optional[str]:
    task = info.get("task") if isinstance(info.get("task"), dict) else {}
    for holder in (entry, info, task):
        for key in ("domain", "env"):
            if isinstance(holder.get(key), str) and holder[key].strip():
                return holder[key].strip()
    return None


def _arm_of(entry: dict[str, Any], info: dict[str, Any]) -> str:
    for holder in (entry, info):
        arm = holder.get("arm")
        if isinstance(arm, str) and arm.strip():
            return "neutral" if arm.strip().lower() in _NEUTRAL_ARM_NAMES else "emotion"
    return "emotion"


def _unsatisfied_hint(entry: dict[str, Any], info: dict[str, Any]) -> bool:
    for holder in (entry, info):
        if holder.get("user_unsatisfied") is True or holder.get("unsatisfied") is True:
            return True
        for key in ("termination", "termination_reason", "terminated_by", "stop_reason"):
            v = holder.get(key)
            if isinstance(v, str) and "unsatisf" in v.lower():
                return True
    traj = entry.get("traj") or entry.get("messages") or []
    if isinstance(traj, list):
        for msg in traj:
            if isinstance(msg, dict) and msg.get("role") == "user":
                content = msg.get("content")
                if isinstance(content, str) and UNSATISFIED_TOKEN in content:
                    return True
    return False


def _num(v: Any) -> Optional[float]:
    if isinstance(v, bool):
        return float(v)
    if isinstance(v, (int, float)):
        return float(v)
    return None


def parse_taubench(data: Any, domain: Optional[str] = None, source: str = "input") -> ImportResult:
    """Turn parsed tau-bench results into cells. ``domain`` overrides the domain of every entry."""
    if isinstance(data, dict):
        for key in ("results", "simulations", "episodes"):
            if isinstance(data.get(key), list):
                data = data[key]
                break
        else:
            raise ImportFormatError(f"{source}: expected a JSON list of results ({{task_id, trial, reward, info, traj}})")
    if not isinstance(data, list):
        raise ImportFormatError(f"{source}: expected a JSON list of results ({{task_id, trial, reward, info, traj}})")

    cells: list[CellResult] = []
    next_trial: dict[tuple[str, str, str], int] = {}
    errors = unknown_emotion = with_emotion = 0
    for i, entry in enumerate(data):
        if not isinstance(entry, dict):
            raise ImportFormatError(f"{source}: entry {i} is not an object")
        if entry.get("task_id") is None:
            raise ImportFormatError(f"{source}: entry {i} has no task_id")
        task_id = str(entry["task_id"])
        info = entry.get("info") if isinstance(entry.get("info"), dict) else {}
        dom = domain or _domain_of(entry, info) or DEFAULT_IMPORT_DOMAIN
        arm = _arm_of(entry, info)

        if "reward" in entry:
            raw_reward = entry["reward"]
        elif isinstance(entry.get("reward_info"), dict) and "reward" in entry["reward_info"]:
            raw_reward = entry["reward_info"]["reward"]
        elif info.get("error") is not None:
            raw_reward = None
        else:
            raise ImportFormatError(f"{source}: entry {i} (task {task_id}) has no reward")
        reward = _num(raw_reward)
        if raw_reward is not None and reward is None:
            raise ImportFormatError(f"{source}: entry {i} (task {task_id}) has a non-numeric reward {raw_reward!r}")

        trial_raw = entry.get("trial")
        if trial_raw is None:
            trial = next_trial.get((dom, task_id, arm), 0)
        elif isinstance(trial_raw, int) and not isinstance(trial_raw, bool) and trial_raw >= 0:
            trial = trial_raw
        else:
            raise ImportFormatError(f"{source}: entry {i} (task {task_id}) has a bad trial {trial_raw!r}")
        next_trial[(dom, task_id, arm)] = max(next_trial.get((dom, task_id, arm), 0), trial + 1)

        traj = entry.get("traj")
        infra = reward is None or (info.get("error") is not None and not traj)
        label = _emotion_label(entry, info)
        family = family_of_label(label) if label is not None else None
        if label is not None:
            with_emotion += 1
            if family is None:
                unknown_emotion += 1
        if infra:
            errors += 1
            cells.append(CellResult(domain=dom, task_id=task_id, arm=arm, trial=trial, complete=False, family=family))
            continue
        assert reward is not None
        violations = info.get("violations")
        cells.append(
            CellResult(
                domain=dom,
                task_id=task_id,
                arm=arm,
                trial=trial,
                complete=True,
                success=reward >= 1 - SUCCESS_TOL,
                unsatisfied=reward <= -1 + SUCCESS_TOL or _unsatisfied_hint(entry, info),
                violations=len(violations) if isinstance(violations, list) else None,
                family=family,
                reward=reward,
            )
        )

    warnings = []
    if not cells:
        warnings.append(f"{source}: no results")
    if errors:
        warnings.append(f"{errors} entr{'y' if errors == 1 else 'ies'} ended in an error (no trajectory); counted as missing cells")
    if not with_emotion and cells:
        warnings.append("no emotion information in the results; the per-family breakdown is skipped")
    elif unknown_emotion:
        warnings.append(f"{unknown_emotion} entr{'y' if unknown_emotion == 1 else 'ies'} with an unrecognised emotion label; left out of the per-family breakdown")
    return ImportResult(cells=cells, warnings=warnings, entries=len(data), has_emotion=with_emotion > 0)


def load_taubench(path: Path | str, domain: Optional[str] = None) -> ImportResult:
    """Read a tau-bench results file; raises :class:`ImportFormatError` with a one-line message."""
    path = Path(path)
    if not path.exists():
        raise ImportFormatError(f"{path}: no such file")
    if path.is_dir():
        raise ImportFormatError(f"{path}: is a directory, expected a tau-bench results file (.json)")
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise ImportFormatError(f"{path}: cannot read ({e})") from e
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ImportFormatError(f"{path}: not valid JSON ({e.msg} at line {e.lineno} column {e.colno})") from e
    return parse_taubench(data, domain=domain, source=str(path))


def load_results(fmt: str, path: Path | str, domain: Optional[str] = None) -> ImportResult:
    """Dispatch on the format name (see :data:`IMPORT_FORMATS`)."""
    name = fmt.strip().lower().replace("-", "").replace("_", "").replace("τ", "tau")
    if name in ("taubench", "tau"):
        return load_taubench(path, domain=domain)
    raise ImportFormatError(f"unknown import format {fmt!r}; supported: {', '.join(IMPORT_FORMATS)}")
