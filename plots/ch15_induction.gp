# Chapter 15, K4: the attention of every head of the model trained on the repeating text,
# on a random segment followed by itself, drawn as ch15_attention.gp draws K2's heads
# (that script is found beside this one).
# caption: Attention weights of every head of the model trained on the repeating text, on a random segment followed by itself (rows: queries, columns: keys; grey: the masked future): in the second copy, an induction head's weights run along a diagonal one segment's length left of the main one, on the character after the earlier copy of the current one.
# claims: K4
load script[1:strstrt(script, "ch15_induction.gp") - 1]."ch15_attention.gp"
