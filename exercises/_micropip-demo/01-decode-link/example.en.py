decode_link("docs/a%20b%2Fc")
