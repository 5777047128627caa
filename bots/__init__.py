"""Reference bots. They import neither ``referee`` nor ``arena``: each must bundle on its own."""
