# mistake: decodes every escape with urllib, including the escaped delimiters mdurl keeps
# expect-fail: delimiters-stay-escaped
from urllib.parse import unquote


def decode_link(text):
    """Decode all percent-escapes."""
    return unquote(text)
