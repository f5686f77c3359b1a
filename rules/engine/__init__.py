"""The one attack engine: exact dice, the target's states and allocation groups, the save step and mortal wounds,
knowing no edition. A ruleset supplies its attack rules (``rules.engine.attack_rules.AttackRules``)."""
