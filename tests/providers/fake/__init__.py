"""A fake wire, "echo", kept outside toolturns: ``tests/providers/test_contract.py`` registers it
for the length of that module, to show that a registry entry, a codec module and a rules module
are all a wire needs."""
