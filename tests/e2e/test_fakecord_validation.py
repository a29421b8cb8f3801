"""The stand-in's 400 Invalid Form Body answers, built from ``tests/discord_rules.py``.

No bot and no server: ``message_errors`` is called directly, to pin down where in Discord's
nested ``errors`` object each broken limit lands and with which code, and that the limits are
``discord_rules``' own (one more character than each limit is refused, the limit itself is not).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests import discord_rules as rules

from .fakecord.records import UploadedFile
from .fakecord.validation import errors_tree, invalid_form_body, message_errors, modal_errors


def leaves(errors: dict[str, Any] | None) -> list[tuple[str, str]]:
    """(dotted path, code) of every entry of an ``errors`` object, as discord.py prints them."""
    out: list[tuple[str, str]] = []

    def walk(node: dict[str, Any], path: tuple[str, ...]) -> None:
        for key, value in node.items():
            if key == "_errors":
                out.extend((".".join(path), error["code"]) for error in value)
            else:
                walk(value, (*path, key))

    walk(errors or {}, ())
    return sorted(out)


def button(custom_id: str | None = "c", label: str = "l") -> dict[str, Any]:
    component = {"type": 2, "style": 1, "label": label}
    if custom_id is not None:
        component["custom_id"] = custom_id
    return component


def row(*components: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(components)}


def field(name: str = "n", value: str = "v") -> dict[str, str]:
    return {"name": name, "value": value}


def embed_of(size: int) -> dict[str, Any]:
    """An embed of exactly ``size`` characters, no part over its own limit."""
    description = min(size, rules.EMBED_DESCRIPTION_MAX)
    rest = size - description
    fields = []
    while rest > 0:
        value = min(rest - 1, rules.EMBED_FIELD_VALUE_MAX)
        fields.append(field("n", "v" * value))
        rest -= 1 + value
    return {"description": "d" * description, "fields": fields}


MAX = "BASE_TYPE_MAX_LENGTH"
LAYOUT = "COMPONENT_LAYOUT_WIDTH_EXCEEDED"

REFUSED = {
    "content": ({"content": "x" * (rules.MESSAGE_CONTENT_MAX + 1)}, [("content", MAX)]),
    "embeds": ({"embeds": [{"title": "t"}] * (rules.MESSAGE_MAX_EMBEDS + 1)}, [("embeds", MAX)]),
    "title": (
        {"embeds": [{"title": "x" * (rules.EMBED_TITLE_MAX + 1)}]},
        [("embeds.0.title", MAX)],
    ),
    "description": (
        {"embeds": [{}, {"description": "x" * (rules.EMBED_DESCRIPTION_MAX + 1)}]},
        [("embeds.1.description", MAX)],
    ),
    "fields": (
        {"embeds": [{"fields": [field()] * (rules.EMBED_MAX_FIELDS + 1)}]},
        [("embeds.0.fields", MAX)],
    ),
    "field name": (
        {"embeds": [{"fields": [field(), field("n" * (rules.EMBED_FIELD_NAME_MAX + 1))]}]},
        [("embeds.0.fields.1.name", MAX)],
    ),
    "field value": (
        {"embeds": [{"fields": [field(value="v" * (rules.EMBED_FIELD_VALUE_MAX + 1))]}]},
        [("embeds.0.fields.0.value", MAX)],
    ),
    "empty field value": (
        {"embeds": [{"fields": [field(value="")]}]},
        [("embeds.0.fields.0.value", "BASE_TYPE_REQUIRED")],
    ),
    "footer": (
        {"embeds": [{"footer": {"text": "f" * (rules.EMBED_FOOTER_TEXT_MAX + 1)}}]},
        [("embeds.0.footer.text", MAX)],
    ),
    "author": (
        {"embeds": [{"author": {"name": "a" * (rules.EMBED_AUTHOR_NAME_MAX + 1)}}]},
        [("embeds.0.author.name", MAX)],
    ),
    "one embed over the total": (
        {"embeds": [embed_of(rules.EMBED_TOTAL_MAX + 1)]},
        [("embeds.0", "MAX_EMBED_SIZE_EXCEEDED")],
    ),
    "embeds together over the total": (
        {
            "embeds": [
                embed_of(rules.EMBED_TOTAL_MAX // 2),
                embed_of(rules.EMBED_TOTAL_MAX // 2 + 1),
            ]
        },
        [("embeds", "MAX_EMBED_SIZE_EXCEEDED")],
    ),
    "action rows": (
        {"components": [row(button(f"c{i}")) for i in range(rules.MESSAGE_MAX_ACTION_ROWS + 1)]},
        [("components", MAX)],
    ),
    "buttons in a row": (
        {"components": [row(*(button(f"c{i}") for i in range(rules.ACTION_ROW_MAX_BUTTONS + 1)))]},
        [("components.0", LAYOUT)],
    ),
    "not an action row": ({"components": [button()]}, [("components.0", LAYOUT)]),
    "custom_id": (
        {"components": [row(button("c" * (rules.CUSTOM_ID_MAX + 1)))]},
        [("components.0.components.0.custom_id", MAX)],
    ),
    "no custom_id": (
        {"components": [row(button(None))]},
        [("components.0.components.0.custom_id", "BASE_TYPE_REQUIRED")],
    ),
    "duplicate custom_id": (
        {"components": [row(button("same")), row(button("same"))]},
        [("components.1.components.0.custom_id", "COMPONENT_CUSTOM_ID_DUPLICATED")],
    ),
    "label": (
        {"components": [row(button(label="l" * (rules.BUTTON_LABEL_MAX + 1)))]},
        [("components.0.components.0.label", MAX)],
    ),
    "select options": (
        {
            "components": [
                row(
                    {
                        "type": 3,
                        "custom_id": "pick",
                        "options": [
                            {"label": "o", "value": f"o{n}"}
                            for n in range(rules.SELECT_MAX_OPTIONS + 1)
                        ],
                    }
                )
            ]
        },
        [("components.0.components.0.options", MAX)],
    ),
    "empty message": ({"content": ""}, [("", "MESSAGE_EMPTY")]),
}


@pytest.mark.parametrize("case", list(REFUSED))
def test_refused_where_discord_says(case: str) -> None:
    body, expected = REFUSED[case]
    assert leaves(message_errors(body, [], need_content=True)) == expected


def test_the_limits_themselves_pass() -> None:
    body = {
        "content": "x" * rules.MESSAGE_CONTENT_MAX,
        "embeds": [embed_of(rules.EMBED_TOTAL_MAX)],
        "components": [
            row(*(button(f"c{r}{i}") for i in range(rules.ACTION_ROW_MAX_BUTTONS)))
            for r in range(rules.MESSAGE_MAX_ACTION_ROWS)
        ],
    }
    assert rules.embed_length(body["embeds"][0]) == rules.EMBED_TOTAL_MAX
    assert message_errors(body, [], need_content=True) is None


def test_an_edit_may_be_empty_and_a_file_is_content() -> None:
    assert message_errors({}, [], need_content=False) is None
    upload = UploadedFile("files[0]", "sheet.txt", "text/plain", b"sheet")
    assert message_errors({"content": ""}, [upload], need_content=True) is None


def test_fields_of_spaces_only_are_refused_as_discord_does() -> None:
    body = {"embeds": [{"fields": [field("Notes", "   ")]}]}
    assert rules.message_problems(body) == ["embeds[0].fields[0].value must not be empty"]
    assert message_errors(body, [], need_content=True) is not None


def test_answer_is_discords_invalid_form_body() -> None:
    problems = rules.located_message_problems({"embeds": [{"title": "x" * 300}]})
    errors = errors_tree(problems)
    assert errors == {
        "embeds": {"0": {"title": {"_errors": [{"code": MAX, "message": problems[0].text}]}}}
    }
    assert invalid_form_body(errors) == {
        "message": "Invalid Form Body",
        "code": 50035,
        "errors": errors,
    }


def select(options: int = 2, **more: Any) -> dict[str, Any]:
    chosen = [{"label": f"L{n}", "value": f"v{n}"} for n in range(options)]
    return {"type": 3, "custom_id": "s", "options": chosen, **more}


@pytest.mark.parametrize(
    ("menu", "expected"),
    [
        (select(), []),
        (select(25), []),
        (select(26), [("components.0.components.0.options", rules.MAX_LENGTH)]),
        (select(0), [("components.0.components.0.options", rules.REQUIRED)]),
        (select(placeholder="p" * 150), []),
        (
            select(placeholder="p" * 151),
            [("components.0.components.0.placeholder", rules.MAX_LENGTH)],
        ),
        (select(max_values=3), [("components.0.components.0.max_values", rules.NOT_ALLOWED)]),
        (
            select(min_values=2, max_values=1),
            [("components.0.components.0.min_values", rules.NOT_ALLOWED)],
        ),
        (
            {**select(), "options": [{"label": "a", "value": "x"}, {"label": "b", "value": "x"}]},
            [("components.0.components.0.options.1.value", rules.DUPLICATE_CUSTOM_ID)],
        ),
        (
            {**select(), "options": [{"label": "a" * 101, "value": "x"}]},
            [("components.0.components.0.options.0.label", rules.MAX_LENGTH)],
        ),
        (
            {**select(), "options": [{"label": "a", "value": ""}]},
            [("components.0.components.0.options.0.value", rules.REQUIRED)],
        ),
    ],
)
def test_a_string_select_is_checked_as_discord_checks_it(menu, expected) -> None:
    """Discord's component reference: 1 to 25 options, labels and values 1 to 100 characters
    and unique values, a placeholder of at most 150, max_values no more than the options."""
    assert leaves(message_errors({"components": [row(menu)]}, [], need_content=True)) == expected


def test_a_select_shares_no_row_with_buttons() -> None:
    errors = message_errors({"components": [row(select(), button())]}, [], need_content=True)
    assert leaves(errors)


@pytest.mark.parametrize(
    ("values", "problem"),
    [
        (["v0"], None),
        (["v9"], "'v9' is not among the select's options"),
        ([], "0 values picked; this select takes 1 to 1"),
        (["v0", "v1"], "2 values picked; this select takes 1 to 1"),
    ],
)
def test_only_offered_values_can_be_picked(values, problem) -> None:
    assert rules.select_values_problem(select(), values) == problem


def text_box(**more: Any) -> dict[str, Any]:
    return {"type": 4, "custom_id": "t", "style": 1, **more}


def form(*components: dict[str, Any], **more: Any) -> dict[str, Any]:
    labelled = [{"type": 18, "label": "Name", "component": text_box()}]
    return {"custom_id": "f", "title": "T", "components": list(components) or labelled, **more}


def labelled(box: dict[str, Any], **more: Any) -> dict[str, Any]:
    return {"type": 18, "label": "Name", "component": box, **more}


@pytest.mark.parametrize(
    ("modal", "expected"),
    [
        (form(), []),
        (form(title="t" * 45, custom_id="c" * 100), []),
        (form(title="t" * 46), [("data.title", rules.MAX_LENGTH)]),
        (form(title=""), [("data.title", rules.REQUIRED)]),
        (form(custom_id="c" * 101), [("data.custom_id", rules.MAX_LENGTH)]),
        (form(custom_id=None), [("data.custom_id", rules.REQUIRED)]),
        (
            form(*[labelled(text_box(custom_id=f"t{n}")) for n in range(5)]),
            [],
        ),
        (
            form(*[labelled(text_box(custom_id=f"t{n}")) for n in range(6)]),
            [("data.components", rules.MAX_LENGTH)],
        ),
        (form(components=[]), [("data.components", rules.MAX_LENGTH)]),
        (form(labelled(text_box(), label="l" * 45)), []),
        (
            form(labelled(text_box(), label="l" * 46)),
            [("data.components.0.label", rules.MAX_LENGTH)],
        ),
        (
            form(labelled(text_box(), description="d" * 101)),
            [("data.components.0.description", rules.MAX_LENGTH)],
        ),
        (
            form(labelled(text_box(label="inside"))),
            [("data.components.0.component.label", rules.NOT_ALLOWED)],
        ),
        (
            form(labelled(text_box(min_length=0, max_length=4000, value="v" * 4000))),
            [],
        ),
        (
            form(labelled(text_box(max_length=4001))),
            [("data.components.0.component.max_length", rules.NOT_ALLOWED)],
        ),
        (
            form(labelled(text_box(max_length=0))),
            [("data.components.0.component.max_length", rules.NOT_ALLOWED)],
        ),
        (
            form(labelled(text_box(min_length=-1))),
            [("data.components.0.component.min_length", rules.NOT_ALLOWED)],
        ),
        (
            form(labelled(text_box(min_length=5, max_length=4))),
            [("data.components.0.component.min_length", rules.NOT_ALLOWED)],
        ),
        (
            form(labelled(text_box(placeholder="p" * 101))),
            [("data.components.0.component.placeholder", rules.MAX_LENGTH)],
        ),
        (
            form(labelled(text_box(style=3))),
            [("data.components.0.component.style", rules.NOT_ALLOWED)],
        ),
        (
            form(labelled(text_box(custom_id="c" * 101))),
            [("data.components.0.component.custom_id", rules.MAX_LENGTH)],
        ),
        (
            form(labelled(text_box()), labelled(text_box())),
            [("data.components.1.component.custom_id", rules.DUPLICATE_CUSTOM_ID)],
        ),
        ({**form(), "components": [row(text_box(label="Name"))]}, []),
        (
            {**form(), "components": [row(text_box(label="l" * 46))]},
            [("data.components.0.components.0.label", rules.MAX_LENGTH)],
        ),
        (
            {**form(), "components": [row(text_box())]},
            [("data.components.0.components.0.label", rules.REQUIRED)],
        ),
        (
            {**form(), "components": [row(button())]},
            [("data.components.0", rules.BAD_LAYOUT)],
        ),
    ],
)
def test_a_modal_is_checked_as_discord_checks_it(modal, expected) -> None:
    """Discord's "Modal" response (type 9) and component reference: custom_id 1 to 100, title
    1 to 45, 1 to 5 components; a label's text 45, description 100; a text input's label 45
    (none inside a label), min_length 0 to 4000, max_length 1 to 4000, placeholder 100."""
    assert leaves(modal_errors(modal)) == expected


def test_a_modal_answer_needs_its_data() -> None:
    assert leaves(modal_errors(None)) == [("data", rules.REQUIRED)]


@pytest.mark.parametrize(
    ("values", "problem"),
    [
        ({"t": "climb"}, None),
        ({}, "'t' is required"),
        ({"t": ""}, "'t' is required"),
        ({"t": "x" * 6}, "'t': 6 characters; this input takes 1 to 5"),
        ({"u": "x"}, "the form has no text input 'u'"),
    ],
)
def test_a_form_is_submitted_only_as_a_client_could(values, problem) -> None:
    modal = form(labelled(text_box(min_length=1, max_length=5)))
    assert rules.modal_submit_problem(modal, values) == problem
