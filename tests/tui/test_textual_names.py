"""No attn-tui class hides a name Textual's own classes define, except the overrides Textual
asks for.

For every attn-tui class with a Textual class in its MRO, the names each attn-tui class in that
MRO defines (its class body, and ``self.X = …`` in its methods, read from the source) are
compared with the names the Textual classes in the same MRO define (their ``__dict__``, and
``self.X = …`` in their source). A data attribute over a Textual method (``self.query = 0``
hides ``DOMNode.query``, which Textual itself calls on a double-click), a method over a Textual
attribute, or a value over a Textual attribute, reactive or property fails unless it is one of
the overrides listed below; a method override must also take the arguments Textual passes.
"""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
import pkgutil
import textwrap

import attn_tui

# Textual calls these by name: handlers, actions, watchers, validators, computed reactives
HOOK_PREFIXES = ("on_", "action_", "watch_", "validate_", "compute_", "key_")

# Textual's methods attn-tui replaces on purpose (beyond the hook prefixes), and why
METHODS = {
    "__init__": "every class takes its own arguments and passes Textual's on",
    "__post_init__": "Textual's Message is built as a dataclass: its own fields, then Textual's",
    "compose": "Textual builds a widget's children from it",
    "render": "Textual paints a widget from it",
    "render_line": "the Line API: ScrollView paints one line at a time from it",
    "render_lines": "a grid finds, once per paint, its top line in sight: its header goes there",
    "get_content_height": "the grids are as tall as their rows, which Textual cannot know",
    "check_action": "Textual's hook to enable or disable a binding",
    "allow_focus": "Textual's hook: may the widget take focus now (a lab's body: while it scrolls)",
    "notify_style_update": "Textual's hook when CSS changes: the grid drops its cached styles",
    "get_default_screen": "the App's first screen is the workbench",
    "get_system_commands": "the App's hook for the command palette's entries",
    "notify": "as Textual's, but a notice already showing is not stacked again",
    "exit": "records that the app is closing, then Textual's",
    "push_screen": "no dialog opens while the app is closing, otherwise Textual's",
    "pop_screen": "a lab left keeps the value typed on its bar, then Textual's",
    "on_event": "keys and pastes keep their order, every other event goes to Textual's",
    "press": "a dialog's button answers at once, as its key does",
    "dismiss": "a dialog closes once, however many keys ask it to",
    "can_replace": "Textual's hook to drop a message a newer one replaces",
    "_on_key": "Textual's key dispatch, wrapped so a binding already run is not run again",
    "_select_or_command": "the command palette chooses an entry once, however many Enters",
    "focus_next": "Tab on the model screen passes the sentence box by while a question waits",
    "focus_previous": "shift+Tab likewise",
}

# Textual's class variables and settable attributes attn-tui gives values, with Textual's meaning
VALUES = {
    "BINDINGS": "a class's keys",
    "DEFAULT_CSS": "a widget's own styles",
    "SCOPED_CSS": "whether DEFAULT_CSS applies to the widget's children only",
    "CSS_PATH": "the App's style sheet",
    "COMPONENT_CLASSES": "the style classes a widget paints parts of itself with",
    "TITLE": "the App's title",
    "ENABLE_COMMAND_PALETTE": "the command palette is on (ctrl+p, the title bar's icon)",
    "HORIZONTAL_BREAKPOINTS": "a screen's layouts for the window's width",
    "VERTICAL_BREAKPOINTS": "a screen's layouts for the window's height",
    "can_focus": "whether a widget takes focus",
    "title": "a screen's title, shown by the title bar",
    "sub_title": "a screen's subtitle, shown by the title bar",
    "border_title": "a pane's title in its top border",
    "border_subtitle": "a pane's subtitle in its bottom border",
    "tooltip": "a widget's tooltip",
    "placeholder": "an Input's text while it is empty",
    "cursor_blink": "whether an Input's cursor blinks (a repaint twice a second)",
    "selection": "an Input's selection; set again, it scrolls the cursor into view",
    "virtual_size": "a ScrollView's scrollable size, which it sets itself",
    "control": "the widget a message is about, which @on(…, selector) matches",
}


def _package(cls: type) -> str:
    module = vars(cls).get("__module__")  # a few C types keep a descriptor there
    return module.split(".")[0] if isinstance(module, str) else ""


def _is_textual(cls: type) -> bool:
    return _package(cls) == "textual"


def _is_ours(cls: type) -> bool:
    return _package(cls) == "attn_tui"


def _class_node(cls: type) -> ast.ClassDef | None:
    try:
        source = inspect.getsource(cls)
    except (OSError, TypeError):  # built in C, or made at run time
        return None
    node = ast.parse(textwrap.dedent(source)).body[0]
    return node if isinstance(node, ast.ClassDef) else None


def _self_assigned(node: ast.ClassDef) -> set[str]:
    """Every X in ``self.X = …`` (also annotated, augmented and unpacked) in the class's methods."""
    found: set[str] = set()

    def targets(t: ast.expr):
        if isinstance(t, ast.Tuple | ast.List):
            for e in t.elts:
                yield from targets(e)
        elif isinstance(t, ast.Starred):
            yield from targets(t.value)
        else:
            yield t

    def walk(n: ast.AST):  # the class's own methods, not those of a class defined inside it
        for child in ast.iter_child_nodes(n):
            if not isinstance(child, ast.ClassDef):
                yield child
                yield from walk(child)

    for n in walk(node):
        if isinstance(n, ast.Assign):
            tops = n.targets
        elif isinstance(n, ast.AnnAssign | ast.AugAssign):
            tops = [n.target]
        else:
            continue
        for top in tops:
            for t in targets(top):
                if (isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name)
                        and t.value.id == "self"):
                    found.add(t.attr)
    return found


@functools.cache
def textual_names(cls: type) -> dict[str, str]:
    """name -> "method", "attribute" (a descriptor: reactive, property…), "value" (a class
    variable) or "instance" (only assigned to self) for one Textual class."""
    kinds: dict[str, str] = {}
    for name, value in vars(cls).items():
        if inspect.isfunction(value) or isinstance(value, staticmethod | classmethod):
            kinds[name] = "method"
        elif hasattr(type(value), "__set__"):
            kinds[name] = "attribute"
        else:
            kinds[name] = "value"
    node = _class_node(cls)
    if node is not None:
        for name in _self_assigned(node):
            kinds.setdefault(name, "instance")
    return kinds


@functools.cache
def own_names(cls: type) -> dict[str, str]:
    """name -> "method", "attribute" (a property), "value" (a class variable) or "assigned"
    (``self.X = …``) for one attn-tui class, from its source."""
    node = _class_node(cls)
    if node is None:
        return {}
    kinds: dict[str, str] = {}
    for stmt in node.body:
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
            is_property = any(isinstance(d, ast.Name) and d.id == "property"
                              or isinstance(d, ast.Attribute) and d.attr in ("setter", "getter")
                              for d in stmt.decorator_list)
            kinds[stmt.name] = "attribute" if is_property else "method"
        elif isinstance(stmt, ast.Assign):
            for t in stmt.targets:
                kinds.update((n.id, "value") for n in ast.walk(t) if isinstance(n, ast.Name))
        elif (isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)
              and stmt.value is not None):  # an annotation alone defines nothing
            kinds[stmt.target.id] = "value"
    for name in _self_assigned(node):
        kinds.setdefault(name, "assigned")
    return kinds


def _accepts_textual_call(ours, theirs) -> bool:
    """Our method takes every argument Textual's does, as Textual passes them."""
    try:
        mine, base = inspect.signature(ours), inspect.signature(theirs)
    except (TypeError, ValueError):
        return True
    args, kwargs = [], {}
    for p in list(base.parameters.values())[1:]:  # past self
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            args.append(None)
        elif p.kind == p.KEYWORD_ONLY:
            kwargs[p.name] = None
    try:
        mine.bind(None, *args, **kwargs)
    except TypeError:
        return False
    return True


def problem(owner: type, name: str, ours: str, base: type, theirs: str) -> str | None:
    """Why ``owner`` defining ``name`` hides ``base``'s, or None if it may."""
    where = f"{owner.__module__}.{owner.__qualname__}.{name} hides {base.__qualname__}.{name}"
    if theirs == "method":
        if ours != "method":
            return f"{where}: a value over a Textual method"
        if not (name in METHODS or (name.startswith(HOOK_PREFIXES))):
            return f"{where}: a method override not in METHODS"
        hook_by_count = name == "__init__" or name.startswith(("on_", "watch_", "_on_"))
        if not hook_by_count and not _accepts_textual_call(vars(owner)[name],
                                                            vars(base)[name]):
            return f"{where}: it does not take the arguments Textual's does"
        return None
    if ours == "method":
        return f"{where}: a method over a Textual {theirs}"
    if name not in VALUES:
        return f"{where}: a{'n' if ours == 'attribute' else ''} {ours} over a Textual {theirs}"\
               " not in VALUES"
    return None


def textual_subclasses() -> list[type]:
    """Every attn-tui class with a Textual class in its MRO, once every module is imported."""
    for info in pkgutil.walk_packages(attn_tui.__path__, "attn_tui."):
        if not info.name.endswith("__main__"):  # that one runs the app
            importlib.import_module(info.name)
    found, todo, seen = [], [object], set()
    while todo:
        for sub in type.__subclasses__(todo.pop()):
            if sub not in seen:
                seen.add(sub)
                todo.append(sub)
                if _is_ours(sub) and any(_is_textual(c) for c in sub.__mro__):
                    found.append(sub)
    return found


def hidden_names(classes: list[type], is_ours=_is_ours) -> list[str]:
    problems = set()
    for cls in classes:
        textual = [c for c in cls.__mro__ if _is_textual(c)]
        for owner in (c for c in cls.__mro__ if is_ours(c)):
            for name, ours in own_names(owner).items():
                base = next((c for c in textual if name in textual_names(c)), None)
                if base is not None:
                    why = problem(owner, name, ours, base, textual_names(base)[name])
                    if why:
                        problems.add(why)
    return sorted(problems)


def test_the_walk_finds_the_widgets_screens_and_app():
    names = {c.__name__ for c in textual_subclasses()}
    assert {"AttnApp", "WorkbenchScreen", "StepTable", "GridView", "MatrixEditor", "Heatmap",
            "HelpScreen", "FileModal", "ScalingLabScreen", "LessonPanel"} <= names


def test_no_attn_tui_class_hides_a_textual_name():
    assert hidden_names(textual_subclasses()) == []


def test_every_allowed_name_is_a_textual_name():
    textual = set()
    for cls in textual_subclasses():
        for c in cls.__mro__:
            if _is_textual(c):
                textual |= set(textual_names(c))
    assert set(METHODS) - textual == set()
    assert set(VALUES) - textual == set()


def test_the_check_catches_a_value_over_a_method_and_a_method_over_a_reactive(tmp_path,
                                                                               monkeypatch):
    code = textwrap.dedent("""
        from textual.widget import Widget

        class Probe(Widget):
            BINDINGS = []
            def __init__(self):
                super().__init__()
                self.query = 0
                self.border_title = "a pane"
            def disabled(self):
                return False
            def compose(self):
                yield from ()
            def render_line(self):
                return None
    """)
    path = tmp_path / "probe_module.py"
    path.write_text(code, encoding="utf-8")
    monkeypatch.syspath_prepend(tmp_path)
    probe = importlib.import_module("probe_module").Probe  # inspect reads it from its file
    found = hidden_names([probe], is_ours=lambda c: c is probe)
    text = "\n".join(found)
    assert "Probe.query hides DOMNode.query: a value over a Textual method" in text
    assert "Probe.disabled hides Widget.disabled: a method over a Textual attribute" in text
    assert "Probe.render_line hides Widget.render_line: it does not take the arguments" in text
    assert "compose" not in text
    assert len(found) == 3, found
