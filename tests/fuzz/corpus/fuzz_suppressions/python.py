x = 1  # opmig: allow(cache-dit-fake-naming) the fake is generated
# opmig: allow(a, b)
