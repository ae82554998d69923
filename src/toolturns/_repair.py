"""``repair``: a transcript's tool exchanges made whole, only when the caller asks.

Nothing else in toolturns calls it: ``check_transcript`` reports, a codec
refuses, and only ``repair`` changes what a transcript says. It pairs results
with calls as ``check_transcript`` does (a result right after its turn answers
that turn's call of its id) and names each change by the problem code
``check_transcript`` reports for it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ._errors import InvalidTranscript, MessageError, describe
from ._frozen import value_class
from ._message import ChatMessage, Role

__all__ = ["NOT_RUN", "RepairAction", "Repaired", "repair"]

# What an added result says: the model reads it in the next turn.
NOT_RUN = "Error: the tool was not run, so this call has no result."


@value_class(frozen=True, slots=True)
class RepairAction:
    """One change ``repair`` made, and the problem it removed.

    Attributes:
        index: The position, in the transcript given to ``repair``, of the
            message changed: the result moved or removed, or the call turn
            whose call got a result.
        code: The problem code ``check_transcript`` reports for it
            (``unanswered_call``, ``late_result``...).
        did: What was done, in words.

    >>> print(RepairAction(3, "orphan_result", "removed the result for call 'call_9', which answers no call"))
    messages[3]: orphan_result: removed the result for call 'call_9', which answers no call
    """

    index: int
    code: str
    did: str

    def __init__(self, index: int, code: str, did: str) -> None:
        object.__setattr__(self, "index", index)
        object.__setattr__(self, "code", code)
        object.__setattr__(self, "did", did)

    def __str__(self) -> str:
        return f"messages[{self.index}]: {self.code}: {self.did}"


@value_class(frozen=True, slots=True)
class Repaired:
    """What ``repair`` returns.

    Attributes:
        messages: The repaired transcript, a new list (the caller's messages,
            less the results removed, and the results added).
        actions: Each change, in the order of the input index it names; empty
            when there was nothing to repair.
    """

    messages: list[ChatMessage]
    actions: tuple[RepairAction, ...]

    def __init__(self, messages: list[ChatMessage], actions: tuple[RepairAction, ...]) -> None:
        object.__setattr__(self, "messages", messages)
        object.__setattr__(self, "actions", actions)


def repair(messages: Sequence[object], *, allow_pending: bool = True) -> Repaired:
    """The transcript with every tool exchange whole: each call answered once, right after its turn.

    - a call with no result gets an ``is_error`` result saying the tool was
      not run (``unanswered_call``);
    - a result separated from its call turn, after it or before it, is moved
      back to right after that turn (``late_result``, ``result_before_call``,
      ``orphan_result``);
    - a second result for a call, and a result whose id no call has, are
      removed (``duplicate_result``, ``orphan_result``, ``result_before_call``).

    Moved and added results come after the results already right after the
    turn, in the order of the turn's calls. What cannot be repaired without
    guessing stays as it is, and ``check_transcript`` still reports it: a call
    id used by calls of two turns (``duplicate_call_id``: a result away from
    both turns could answer either, so it stays, and so does a call of that id
    such a result could answer; it goes only as a surplus, when each call of
    the id is answered right after its turn), and a result whose ``name`` is
    not its call's (``result_name_mismatch``: which of the two is wrong?).
    docs/transcripts.md ("Repair, only when asked") says what it never does.

    Args:
        messages: ``ChatMessage`` values or OpenAI-shape message dicts (read
            with ``ChatMessage.from_dict``). Never changed.
        allow_pending: As in ``check_transcript``: a transcript that ends on a
            call turn with no results after it is left so. False answers those
            calls too.

    Returns:
        ``Repaired``: ``.messages``, a new list of ``ChatMessage``, and
        ``.actions``, one ``RepairAction`` per change.

    Raises:
        InvalidTranscript: ``messages`` is not a list or tuple, or
            ``allow_pending`` is not a bool.
        InvalidMessage, InvalidToolCall: an item does not read as a message
            (the path starts with ``messages[N]``), as with ``trim``.

    >>> from toolturns import ChatMessage, ToolCall, repair
    >>> history = [
    ...     ChatMessage.user("Weather in Paris and Rome?"),
    ...     ChatMessage.assistant_tool_calls([ToolCall("call_1", "get_weather", {"city": "Paris"}),
    ...                                       ToolCall("call_2", "get_weather", {"city": "Rome"})]),
    ...     ChatMessage.tool_result("call_1", "18 C"),
    ...     ChatMessage.user("And tomorrow?"),
    ... ]
    >>> for action in repair(history).actions:
    ...     print(action)
    messages[1]: unanswered_call: added an is_error result for call 'call_2' ('get_weather') saying the tool was not run
    """
    if not isinstance(messages, (list, tuple)):
        raise InvalidTranscript("messages", "must be a list or tuple of messages", describe(messages))
    if type(allow_pending) is not bool:
        raise InvalidTranscript("allow_pending", "must be a boolean", describe(allow_pending))
    return _Repair(_read(messages), allow_pending).repaired()


def _read(messages: Sequence[object]) -> list[ChatMessage]:
    turns: list[ChatMessage] = []
    for index, item in enumerate(messages):
        if isinstance(item, ChatMessage):
            turns.append(item)
            continue
        try:
            turns.append(ChatMessage.from_dict(item))
        except MessageError as error:
            raise error.with_prefix(f"messages[{index}]") from None
    return turns


class _Repair:
    """One transcript's exchanges: which result answers which call, and what must change."""

    def __init__(self, turns: list[ChatMessage], allow_pending: bool) -> None:
        self.turns = turns
        self.allow_pending = allow_pending
        # Call id -> the indexes of the turns whose calls use it (more than one: ambiguous).
        self.owners: dict[str, list[int]] = {}
        for index, turn in enumerate(turns):
            for call in turn.tool_calls or ():
                self.owners.setdefault(call.id, []).append(index)
        # Call turn index -> call id -> the index of the result right after the turn that answers it.
        self.in_place: dict[int, dict[str, int]] = {}
        # Where the results right after each call turn end (the turn itself when none follow).
        self.run_end: dict[int, int] = {}
        # Call id -> its results away from its turns, with the code check_transcript gives each.
        self.separated: dict[str, list[tuple[int, str]]] = {}
        # Ambiguous call ids of which a result away from every turn stays.
        self.stranded: set[str] = set()
        self.dropped: dict[int, RepairAction] = {}  # result index -> why it goes
        self.moved: dict[int, dict[str, int]] = {}  # call turn index -> call id -> result moved to it
        self.actions: list[RepairAction] = []

    def repaired(self) -> Repaired:
        self.pair()
        if not self.separated and not self.dropped and self.all_answered():
            return Repaired(list(self.turns), ())  # the common case: nothing to repair
        self.place_separated()
        added = self.answer_the_rest()
        return Repaired(self.assemble(added), tuple(sorted(self.actions, key=_by_index)))

    def all_answered(self) -> bool:
        last = len(self.turns) - 1
        for index, answers in self.in_place.items():
            calls = self.turns[index].tool_calls or ()
            if len(answers) != len(calls) and not (self.allow_pending and index == last):
                return False
        return True

    def pair(self) -> None:
        """Each result: in place for the turn right before it, a duplicate, or separated from its call.

        The codes are ``check_transcript``'s for the same message: it too
        remembers which ids calls made and which calls got a result so far.
        """
        made: set[str] = set()  # ids of the calls of the turns so far
        answered: set[str] = set()  # ids answered so far, in place or late
        exchange: int | None = None  # the call turn the results now coming follow
        calls: set[str] = set()  # the ids of its calls
        for index, turn in enumerate(self.turns):
            if turn.role is not Role.TOOL:
                exchange = None
                if turn.tool_calls:
                    exchange = index
                    calls = {call.id for call in turn.tool_calls}
                    self.in_place[index] = {}
                    self.run_end[index] = index
                    made.update(calls)
                continue
            call_id = turn.tool_call_id
            assert call_id is not None  # a tool turn always answers an id
            if exchange is not None:
                self.run_end[exchange] = index
                answers = self.in_place[exchange]
                if call_id in calls:
                    if call_id in answers:
                        self.drop(index, "duplicate_result", call_id, answers[call_id])
                    else:
                        answers[call_id] = index
                        answered.add(call_id)
                    continue
            if call_id in answered:
                code = "duplicate_result"
            elif call_id in made:
                code = "late_result"
                answered.add(call_id)
            else:
                code = "orphan_result" if made else "result_before_call"
            if call_id in self.owners:
                self.separated.setdefault(call_id, []).append((index, code))
            else:
                self.remove(
                    index, code, f"removed the result for call {describe(call_id)}, which answers no call"
                )

    def drop(self, index: int, code: str, call_id: str, answer: int) -> None:
        self.remove(
            index,
            code,
            f"removed a second result for call {describe(call_id)}, which messages[{answer}] answers",
        )

    def remove(self, index: int, code: str, did: str) -> None:
        self.actions.append(RepairAction(index, code, did))
        self.dropped[index] = self.actions[-1]

    def place_separated(self) -> None:
        """A separated result goes back to its turn unless the call has its answer: the result
        right after the turn, else the first after the turn (as check_transcript pairs it), else
        the first one before."""
        for call_id, results in self.separated.items():
            owners = self.owners[call_id]
            if len(owners) > 1:
                self.place_shared(call_id, owners, results)
                continue
            (owner,) = owners
            answer = self.in_place[owner].get(call_id)
            if answer is None:
                after = [result for result in results if result[0] > owner]
                index, code = (after or results)[0]
                answer = index
                self.moved.setdefault(owner, {})[call_id] = index
                where = "back to" if index > owner else "to"
                self.actions.append(
                    RepairAction(
                        index,
                        code,
                        f"moved the result for call {describe(call_id)} {where} right after its call turn, "
                        f"messages[{owner}]",
                    )
                )
            for index, code in results:
                if index != answer:
                    self.drop(index, code, call_id, answer)

    def place_shared(self, call_id: str, owners: list[int], results: list[tuple[int, str]]) -> None:
        """Results away from the turns whose calls share their id: surplus when each of those calls
        is answered right after its turn; else which call they answer would be a guess, so they stay."""
        if any(call_id not in self.in_place[owner] for owner in owners):
            self.stranded.add(call_id)
            return
        turns = ", ".join(f"messages[{owner}]" for owner in owners)
        for index, code in results:
            self.remove(
                index,
                code,
                f"removed a result for call {describe(call_id)}: every call of that id ({turns}) "
                "is answered right after its turn",
            )

    def answer_the_rest(self) -> dict[int, list[ChatMessage]]:
        """Per call turn, its results moved back and added, in call order."""
        last = len(self.turns) - 1
        added: dict[int, list[ChatMessage]] = {}
        for index, answers in self.in_place.items():
            moved = self.moved.get(index, {})
            pending = self.allow_pending and index == last and not moved
            block: list[ChatMessage] = []
            for call in self.turns[index].tool_calls or ():
                if call.id in answers:
                    continue
                if call.id in moved:
                    block.append(self.turns[moved[call.id]])
                elif not pending and call.id not in self.stranded:
                    block.append(ChatMessage.tool_result(call.id, NOT_RUN, is_error=True))
                    self.actions.append(
                        RepairAction(
                            index,
                            "unanswered_call",
                            f"added an is_error result for call {describe(call.id)} ({describe(call.name)}) "
                            "saying the tool was not run",
                        )
                    )
            if block:
                added[self.run_end[index]] = block
        return added

    def assemble(self, added: Mapping[int, list[ChatMessage]]) -> list[ChatMessage]:
        moved = {index for results in self.moved.values() for index in results.values()}
        messages: list[ChatMessage] = []
        for index, turn in enumerate(self.turns):
            if index not in self.dropped and index not in moved:
                messages.append(turn)
            messages.extend(added.get(index, ()))
        return messages


def _by_index(action: RepairAction) -> int:
    return action.index
