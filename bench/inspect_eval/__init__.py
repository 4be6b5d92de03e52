"""The Inspect AI task (`task.py`: `inspect eval bench/inspect_eval/task.py@sysr_bench`): the
loop's conversation as solver, the judge as scorer, the attempts kept in each sample's store.

Not named `inspect`: Inspect loads the task file by path, and a package of that name would
shadow the standard library's `inspect`. May import every package but `cli`.
"""
