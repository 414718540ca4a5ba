"""What a refused move's form keeps: the choices the player had made stay checked."""

from django import template

register = template.Library()


@register.simple_tag
def kept(form: dict, name: str, value) -> str:
    """' checked' when the refused post of this form named `value` for the field `name`."""
    return " checked" if f"{name}={value}" in (form.get("kept") or ()) else ""
