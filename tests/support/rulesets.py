"""Rule sets that, together, toggle every option of the engine (the differential tests')."""

RULESETS = [
    "standard",
    "yeshou",
    "datou",
    "standard+dog_over_wolf+no_capture_plies=6",
    "standard+jump_block=enemy+rat_cross_capture+rule_7_3",
    "yeshou+lion_jump=horizontal+tiger_jump=none+no_capture_plies=20",
    "datou+lion_jump=none+rule_7_3+dog_over_wolf",
    "yeshou+rule_7_3=false+rule_17_5=false+rat_cross_capture=false+jump_block=any",
    "standard+rule_17_5+tiger_jump=horizontal+no_capture_plies=0",
    "datou+tiger_jump=both+lion_jump=horizontal+no_capture_plies=12",
    "yeshou+dog_over_wolf+tiger_jump=horizontal+no_capture_plies=9",
    "standard+elephant_captures_rat+rat_cross_capture+no_capture_plies=0",
    "standard+trapped_can_capture",
    "yeshou+elephant_captures_rat+trapped_can_capture+jump_block=any",
    "datou+trapped_can_capture+dog_over_wolf+no_capture_plies=15",
]
