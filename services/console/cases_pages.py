"""The case queue (filter, sort, assign to me, bulk assign) and the case page (evidence,
alerts and findings with their rule text, notes, actions, the audit trail).

Every action goes through ``services.cases.actions`` with the logged-in user as the
actor and the version the page showed: it is one audit entry (who, when, what, the state
before and after), and an action on a case someone changed since is refused, not applied
to a case its author has not seen.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, get_args

from sqlalchemy import Engine, select
from sqlalchemy.exc import OperationalError
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from services.cases.actions import CaseChanged, CaseNotFound, CaseRefused, act
from services.cases.known import refusal, unknown_subject
from services.cases.lifecycle import NAME_LIMIT, TEXT_LIMIT, Action, same_name
from services.cases.queries import (
    WORK,
    CaseDetail,
    CaseFilter,
    CaseSummary,
    get_case,
    list_cases,
)
from services.console.explain import rule_text, statistic_in_words
from services.console.roles import ROLE_NAMES, allowed, with_article
from services.console.sessions import Session
from services.console.users import list_users
from services.console.web import (
    BUSY,
    console_of,
    database_busy,
    form_of,
    refused,
    render,
    text_field,
)
from services.events.contract import GameName, Severity, decode_alert
from services.events.numerals import is_ascii_number
from services.ledger.archive_tables import ArchiveAlert
from services.ledger.case_tables import CASE_OUTCOMES, CASE_STATES, is_case_id
from services.ledger.console_tables import CONSOLE_ROLES
from services.ledger.models import FindingRow
from services.reports.alerts import AlertLine, alert_line

PAGE_SIZE = 100
SortKey = Callable[[CaseSummary], Any]
SORTS: dict[str, SortKey | None] = {  # None: list_cases' own order, most serious first
    "severity": None, "opened": lambda c: (c.opened_at, c.case_id),
    "updated": lambda c: (c.updated_at, c.case_id), "case": lambda c: c.case_id,
    "state": lambda c: (c.state, c.case_id),
    "assignee": lambda c: (c.assignee or "", c.case_id)}
# The queue's default is ``WORK``, every case not closed (``pitwatch cases list``'s too).
FILTER_FIELDS = ("state", "severity", "game", "table", "dealer", "player", "assignee", "sort")


# Filtered by the form (POST) only, so that players' (and dealers') ids stay out of
# addresses, which proxies and servers log.
POSTED_ONLY = ("player", "dealer")


@dataclass(frozen=True)
class QueueView:
    wanted: dict[str, str]
    cases: list[CaseSummary]
    total: int
    page: int
    pages: int
    withheld: bool = False  # no cases listed: the address asked for a filter not applied


def queue_view(engine: Any, wanted: dict[str, str], page: int, me: str,
               page_size: int = PAGE_SIZE) -> QueueView:
    """The queue as filtered and sorted, one page of it."""
    state = wanted.get("state", WORK)
    assignee = wanted.get("assignee") or None
    found = list_cases(engine, CaseFilter(
        state=state if state in (*CASE_STATES, WORK) else None,
        severity=wanted.get("severity") or None, game=wanted.get("game") or None,
        table=wanted.get("table") or None, dealer=wanted.get("dealer") or None,
        player=wanted.get("player") or None,
        assignee=me if assignee == "me" else assignee))
    order = SORTS.get(wanted.get("sort", "severity"))
    if order is not None:
        found.sort(key=order)
    pages = max(1, -(-len(found) // page_size))
    page = min(max(page, 1), pages)
    return QueueView(wanted, found[(page - 1) * page_size:page * page_size], len(found),
                     page, pages)


def _wanted(source: Any) -> dict[str, str]:
    return {name: str(source.get(name, "")).strip()[:200] for name in FILTER_FIELDS
            if source.get(name)}


MAX_PAGE = 10**9
CASE_ID_DIGITS = 10  # MAX_CASE_ID (2**31 - 1) has 10 digits
VERSION_DIGITS = 18  # a case's version counts its actions: far below 10**18
# The case rules' own limits (``services.cases.lifecycle``), which the command line
# applies too: the form says them before the action is tried.
NOTE_CHARACTERS = TEXT_LIMIT  # a note's or a reason's text
NAME_CHARACTERS = NAME_LIMIT  # a reviewer's name


def _page_number(value: object) -> int:
    """A page number from a form: one that is no number, or below 1, is 1; one beyond a
    billion is a billion (past the last page: an empty page, not a database error)."""
    try:
        return min(max(int(str(value)), 1), MAX_PAGE)
    except ValueError:
        return 1


def case_number(value: object) -> int | None:
    """The case a path or a form names, or None when it names none: a number of up to ten
    digits within the case ids (``/cases/0`` was once read as case 1, an id above a
    billion as a billion, and one of thousands of digits broke ``int``)."""
    text = str(value).strip()
    if is_ascii_number(text) and len(text) <= CASE_ID_DIGITS and is_case_id(int(text)):
        return int(text)
    return None


def _case_numbers(values: list[Any]) -> tuple[list[int], list[str]]:
    """The case numbers a form names, each once, and a problem for each value that names
    no case (it was read as case 1 once: a bulk assignment of a mistyped number took
    case 1)."""
    numbers: dict[int, None] = {}
    problems = []
    for value in values:
        number = case_number(value)
        if number is None:
            problems.append(f"no case {str(value).strip()[:40]!r}")
        else:
            numbers[number] = None
    return list(numbers), problems


def _version_of(value: object) -> int | None:
    """The case version a form carries (the one its page showed), None if it has none."""
    text = str(value or "").strip()
    return int(text) if is_ascii_number(text) and len(text) <= VERSION_DIGITS else None


def _too_long(form: Any, limits: dict[str, int]) -> str | None:
    """What is wrong when a field is longer than it may be: a text cut short without a
    word would be a note its author never wrote."""
    for name, limit in limits.items():
        value = form.get(name)
        if isinstance(value, str) and len(value.strip()) > limit:
            return (f"the {name} is {len(value.strip()):,} characters, more than the "
                    f"{limit:,} it may have: shorten it and submit again")
    return None


async def queue(request: Request, session: Session) -> Response:
    """GET: the open work (or ?state=/?assignee=me from the menu); POST: the filter form
    (players and dealers are filtered by POST, so their ids stay out of URLs and logs: an
    address naming one lists no case and says the filter was not applied)."""
    if request.method == "POST":
        form = await form_of(request)
        wanted, page = _wanted(form), _page_number(form.get("page", "1"))
    else:
        params = request.query_params
        wanted, page = _wanted(params), _page_number(params.get("page", "1"))
    state = wanted.get("state", WORK)
    if state not in (*CASE_STATES, WORK, "any"):
        return refused(request, session, f"no case state {state[:40]!r}: one of "
                       f"{', '.join((*CASE_STATES, 'any'))}", status=400)
    unknown = _unknown_choice(wanted)
    if unknown is not None:
        return refused(request, session, unknown, status=400)
    in_address = [name for name in POSTED_ONLY if name in wanted]
    if request.method != "POST" and in_address:
        return render(request, "queue.html", session, status=400,
                      view=QueueView(wanted, [], 0, 1, 1, withheld=True), states=CASE_STATES,
                      sorts=list(SORTS), notice=_not_applied(in_address))
    engine = console_of(request).engine
    stranger = await run_in_threadpool(_unknown_subject, engine, wanted)
    if stranger is not None:
        return refused(request, session, stranger, status=400)
    view = await run_in_threadpool(queue_view, engine, wanted, page, session.username)
    return render(request, "queue.html", session, view=view, states=CASE_STATES,
                  sorts=list(SORTS), notice="")


def _unknown_subject(engine: Any, wanted: dict[str, str]) -> str | None:
    """What is wrong with a table, dealer or player the database does not know, as
    ``pitwatch cases list`` refuses it (``services.cases.known``): a mistyped name listed
    "0 case(s)", a clear queue (QA). The known tables are named; players and dealers not."""
    for kind in ("table", "dealer", "player"):
        value = wanted.get(kind) or ""
        known = unknown_subject(engine, kind, value) if value else None
        if known is not None:
            return refusal(kind, value, known, f"the {kind} field", name_them=kind == "table")
    return None


# What the queue's game and severity filters take, as ``pitwatch cases list`` does: a game
# typed "HCF" or "Hold'em" listed "0 case(s)" (an empty queue read as no work), and a
# severity it did not know was dropped, listing every case (QA).
QUEUE_CHOICES = {"game": get_args(GameName), "severity": get_args(Severity)}


def _unknown_choice(wanted: dict[str, str]) -> str | None:
    """What is wrong with a game or severity the queue does not know (None: nothing)."""
    for name, choices in QUEUE_CHOICES.items():
        value = wanted.get(name) or ""
        if value and value not in choices:
            return f"no {name} {value[:40]!r}: one of {', '.join(choices)}"
    return None


def _not_applied(names: list[str]) -> str:
    """What the queue says to an address that names a player or dealer (a link, a typed
    URL): it dropped the filter silently and listed every case (QA), which read as the
    cases of that player. It lists none, says why, and has the value in the form."""
    what = " and ".join(f"the {name}" for name in names)
    return (f"Not applied: {what} filter{'s are' if len(names) > 1 else ' is'} given "
            "through the form, not the page's address (addresses end up in proxies' and "
            "servers' logs), so no cases are listed. Press Filter to apply "
            f"{'them' if len(names) > 1 else 'it'}.")


async def bulk_assign(request: Request, session: Session) -> Response:
    """Assign the ticked cases, each at the version the queue showed (``version-N``): a
    case someone changed since is left as it is and named, not taken from them."""
    form = await form_of(request)
    too_long = _too_long(form, {"assignee": NAME_CHARACTERS})
    if too_long:
        return refused(request, session, too_long, status=400)
    assignee = text_field(form, "assignee", NAME_CHARACTERS)
    ids, not_cases = _case_numbers(form.getlist("case"))
    if not assignee or not (ids or not_cases):
        return refused(request, session, "choose cases and the reviewer to assign them to",
                       status=400)
    engine = console_of(request).engine
    try:
        assignee = await run_in_threadpool(console_reviewer, engine, assignee)
    except CaseRefused as exc:
        return refused(request, session, str(exc), status=400)
    versions = {case_id: _version_of(form.get(f"version-{case_id}")) for case_id in ids}

    busy: list[int] = []  # not assigned: the database was busy (the rest not tried)
    changed: list[int] = []  # not assigned: not at the version the queue showed
    held: list[int] = []  # the reviewer had it already: nothing changed, nothing recorded

    def assign_all() -> list[str]:
        problems = []
        for case_id, version in versions.items():
            if version is None:
                problems.append(f"case {case_id}: the form did not say which version of it "
                                "you saw: open the queue again")
                continue
            if busy:  # each would wait as long again for the same writer
                busy.append(case_id)
                continue
            try:
                done = act(engine, case_id, "assign", session.username, assignee=assignee,
                           expected_version=version)
                if not done.changed:
                    held.append(case_id)
            except CaseChanged as exc:
                changed.append(case_id)
                problems.append(_plain(exc))
            except (CaseRefused, CaseNotFound) as exc:
                problems.append(_plain(exc))
            except OperationalError as exc:
                if not database_busy(exc):
                    raise
                busy.append(case_id)
        return problems

    problems = not_cases + await run_in_threadpool(assign_all)
    problems += [f"case {case_id}: {BUSY}: nothing changed on it; assign it again in a "
                 "moment" for case_id in busy]
    # A case the reviewer held already is not counted as assigned (QA: "1 case(s)
    # assigned to op" of a case op had, where nothing was written): it is said apart.
    done = len(ids) + len(not_cases) - len(problems) - len(held)
    if changed and len(changed) == len(problems) == len(ids) + len(not_cases):
        return refused(request, session, _none_assigned(changed), status=409)
    return render(request, "assigned.html", session, status=_bulk_status(busy, done, held),
                  done=done, assignee=assignee, problems=problems, held=held)


def _bulk_status(busy: list[int], done: int, held: list[int]) -> int:
    """503 when the database was busy (try again), 400 when the form did nothing at all
    (every case named was no case, or refused: QA, it answered 200 "0 case(s)
    assigned"), else 200; the page lists each case's reason either way."""
    if busy:
        return 503
    return 400 if done == 0 and not held else 200


def _none_assigned(changed: list[int]) -> str:
    """A bulk assignment every case of which changed since the queue showed it: 409, as
    one such case on its page is, in the console's words. It said "0 case(s) assigned"
    with 200, each case with the command line's "(pitwatch cases show 20)" (QA)."""
    if len(changed) == 1:
        return (f"case {changed[0]} is not at the version the queue showed (someone acted "
                "on it since): nothing was assigned; open the queue again and assign it "
                "from there")
    named = ", ".join(str(c) for c in changed[:-1]) + f" and {changed[-1]}"
    return (f"cases {named} are not at the versions the queue showed (someone acted on "
            "them since): nothing was assigned; open the queue again and assign them from "
            "there")


@dataclass(frozen=True)
class CaseAlert:
    line: AlertLine
    words: str


def case_alerts(engine: Any, case: CaseDetail) -> list[CaseAlert]:
    ids = [e.source_id.removeprefix("alert:") for e in case.evidence if e.kind == "alert"]
    if not ids:
        return []
    with engine.connect() as conn:
        rows = conn.execute(select(ArchiveAlert.alert_json)
                            .where(ArchiveAlert.alert_id.in_(ids))
                            .order_by(ArchiveAlert.alert_id)).scalars()
        lines = [alert_line(decode_alert(row)) for row in rows]
    return [CaseAlert(line, statistic_in_words(line)) for line in lines]


@dataclass(frozen=True)
class HandFinding:
    hand_id: str
    rule: str
    severity: str
    code: str
    seat: int | None
    amount: int | None
    message: str


def case_findings(engine: Any, case: CaseDetail) -> list[HandFinding]:
    """Every finding of the hands the case's finding evidence names, as booked."""
    hands = sorted({e.hand_id for e in case.evidence if e.kind == "finding" and e.hand_id})
    if not hands:
        return []
    F = FindingRow
    with engine.connect() as conn:
        return [HandFinding(*row) for row in conn.execute(
            select(F.hand_id, F.rule, F.severity, F.code, F.seat, F.amount, F.message)
            .where(F.hand_id.in_(hands)).order_by(F.hand_id, F.ordinal))]


def _case_context(engine: Any, case_id: int) -> dict[str, Any] | None:
    case = get_case(engine, case_id)
    if case is None:
        return None
    findings = case_findings(engine, case)
    rules = sorted({e.rule for e in case.evidence} | {f.rule for f in findings})
    return {"case": case, "alerts": case_alerts(engine, case), "findings": findings,
            "rules": [(r, rule_text(r)) for r in rules],
            "notes": [a for a in case.audit if a.action == "note"],
            "outcomes": CASE_OUTCOMES}


def _no_case(request: Request, session: Session) -> Response:
    named = str(request.path_params["case_id"])[:40]
    return refused(request, session, f"there is no case {named}", status=404)


async def case_page(request: Request, session: Session) -> Response:
    case_id = case_number(request.path_params["case_id"])
    if case_id is None:
        return _no_case(request, session)
    context = await run_in_threadpool(_case_context, console_of(request).engine, case_id)
    if context is None:
        return _no_case(request, session)
    return render(request, "case.html", session, message=request.query_params.get("m", ""),
                  **context)


def _action_page(action: Action) -> Any:
    async def page(request: Request, session: Session) -> Response:
        form = await form_of(request)
        case_id = case_number(request.path_params["case_id"])
        if case_id is None:
            return _no_case(request, session)
        too_long = _too_long(form, {"text": NOTE_CHARACTERS, "assignee": NAME_CHARACTERS})
        if too_long:
            return refused(request, session, too_long, status=400)
        assignee = _own_name(text_field(form, "assignee", NAME_CHARACTERS) or None, session)
        if action == "assign" and assignee is None and "assignee" in form:
            # An officer's form has an "Assign to" field; cleared, the case was assigned
            # to the officer (QA). A reviewer's form has none: "Assign to me".
            return refused(request, session, "name the reviewer to assign the case to "
                           "(your own name to take it yourself)", status=400)
        if action == "assign" and assignee not in (None, session.username) and not allowed(
                session.role, "bulk_assign"):
            return refused(request, session, "only a compliance officer assigns cases to "
                           "someone else: assign it to yourself")
        if action == "assign" and not allowed(session.role, "bulk_assign"):
            holder = await run_in_threadpool(_held_by_another, console_of(request).engine,
                                             case_id, session.username)
            if holder is not None:  # taking it would be a reassignment, an officer's
                return refused(request, session, f"case {case_id} is assigned to {holder}: "
                               "only a compliance officer reassigns a case someone holds; "
                               f"ask {holder} or a compliance officer", status=403)
        if action == "assign" and assignee not in (None, session.username):
            try:
                assignee = await run_in_threadpool(console_reviewer,
                                                   console_of(request).engine, str(assignee))
            except CaseRefused as exc:
                return refused(request, session, str(exc), status=400)
        if not str(form.get("version") or "").strip():  # a change is to the case as seen
            return refused(request, session, "the form did not say which version of the "
                           "case you saw: open the case again and resubmit", status=400)
        version = _version_of(form.get("version"))
        if version is None:
            return refused(request, session, "the form's case version is not a number: open "
                           "the case again", status=400)
        try:
            await run_in_threadpool(
                lambda: act(console_of(request).engine, case_id, action, session.username,
                            assignee=assignee or session.username,
                            text=text_field(form, "text", NOTE_CHARACTERS) or None,
                            outcome=text_field(form, "outcome", 32) or None,
                            expected_version=version))
        except CaseNotFound as exc:
            return refused(request, session, str(exc), status=404)
        except CaseChanged as exc:  # someone acted on the case since the page was shown
            return refused(request, session, _plain(exc), status=409)
        except CaseRefused as exc:  # what the form asks breaks a case rule
            return refused(request, session, _plain(exc), status=400)
        except OperationalError as exc:  # another process held the write lock too long
            if not database_busy(exc):
                raise
            return refused(request, session, f"{BUSY}: nothing changed on case {case_id}; "
                           "submit it again in a moment", status=503)
        back = text_field(form, "back", 200)
        target = back if back == "/queue" else f"/cases/{case_id}"
        return RedirectResponse(target, status_code=303)

    page.__name__ = f"case_{action}"
    page.__doc__ = f"{action} a case (one audit entry)."
    return page


def _held_by_another(engine: Engine, case_id: int, me: str) -> str | None:
    """Who holds the case, when someone other than ``me`` does (None: nobody, or me).

    Operators and analysts may assign a case to themselves, not to someone else; taking a
    case another reviewer holds is passing it from them, which only an officer does (QA:
    an operator's "Assign to me" took an escalated case from the officer holding it). Read
    before the action, which is made at the version the form showed: a case assigned to
    someone since is refused by that version check (409) if not here."""
    case = get_case(engine, case_id)
    holder = case.summary.assignee if case is not None else None
    return holder if holder and not same_name(holder, me) else None


def _own_name(typed: str | None, session: Session) -> str | None:
    """``typed``, or the user's own name as stored when ``typed`` is it in other capitals
    or widths: names match as ``same_name`` compares them (``console_reviewer``), and "An"
    typed by an was taken for someone else, which only an officer may assign to (403)."""
    if typed is not None and same_name(typed, session.username):
        return session.username
    return typed


WORKERS = [ROLE_NAMES[role] for role in CONSOLE_ROLES if allowed(role, "work")]


def console_reviewer(engine: Engine, typed: str) -> str:
    """The console user ``typed`` names, as stored (lower case), if one may log in and
    work cases; else ``CaseRefused`` saying why (the page's 400).

    A case assigned in the console to a name no user has was in nobody's "assigned to me"
    (the command line, where cases are also worked, takes any reviewer's name). One
    assigned to an auditor was in the queue of someone whose role may not assign it on,
    note it, escalate or close it (docs/console.md: auditors read everything and change
    nothing), so it stood still until an officer took it back (QA)."""
    user = next(((user, role) for user, role, disabled in list_users(engine)
                 if same_name(user, typed) and not disabled), None)
    if user is None:
        raise CaseRefused(f"no console user is named {typed.strip()!r} (or the user is "
                          "disabled): assign cases to a user of the console")
    name, role = user
    if not allowed(role, "work"):
        raise CaseRefused(f"{name} is {with_article(ROLE_NAMES[role])}, who cannot work "
                          f"cases: assign cases to {_either(WORKERS)}")
    return name


def _either(names: list[str]) -> str:
    """"a surveillance operator, a dispute analyst or a compliance officer"."""
    said = [with_article(n) for n in names]
    return ", ".join(said[:-1]) + f" or {said[-1]}" if len(said) > 1 else said[0]


def _plain(exc: Exception) -> str:
    """A refusal's message without the CLI's advice (a command line is not the form)."""
    return str(exc).split("(pitwatch")[0].strip()


assign_case = _action_page("assign")
note_case = _action_page("note")
escalate_case = _action_page("escalate")
close_case = _action_page("close")
