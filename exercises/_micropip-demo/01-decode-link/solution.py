import mdurl


def decode_link(text):
    """Return text with its percent-escapes decoded, keeping escaped URL delimiters escaped."""
    return mdurl.decode(text)
