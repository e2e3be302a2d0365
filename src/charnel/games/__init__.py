"""The games bundled with charnel, one package each; the core finds them through
`charnel.registry` and never names one."""
