import SluiceCore

/// An I-Regexp compiled to a Thompson automaton, and the simulation that runs it: every live
/// alternative advances in step over the text's code points, so a match takes time proportional to
/// the text's length times the program's size, whatever the pattern.
struct IRegexpProgram: Sendable {
    enum Instruction: Sendable {
        /// Consume this code point.
        case scalar(UInt32)
        /// Consume a code point of ``IRegexpProgram/classes`` at this index.
        case characters(Int)
        /// Go on at both targets.
        case split(Int, Int)
        /// Go on at the target.
        case jump(Int)
        /// Go on only at the start of the text.
        case start
        /// Go on only at the end of the text.
        case end
        /// The pattern has matched.
        case match
    }

    private(set) var instructions: [Instruction] = []
    private(set) var classes: [IRegexpCharacterClass] = []

    /// Compiles `tree`, or returns `nil` past `limit` instructions.
    init?(compiling tree: IRegexpNode, limit: Int) {
        guard emit(tree, limit: limit) else { return nil }
        instructions.append(.match)
    }

    private mutating func emit(_ node: IRegexpNode, limit: Int) -> Bool {
        switch node {
        case .empty:
            break
        case .characters(let set):
            if let scalar = set.singleScalar {
                instructions.append(.scalar(scalar))
            } else {
                classes.append(set)
                instructions.append(.characters(classes.count - 1))
            }
        case .start:
            instructions.append(.start)
        case .end:
            instructions.append(.end)
        case .sequence(let parts):
            for part in parts {
                guard emit(part, limit: limit) else { return false }
            }
        case .alternation(let branches):
            var jumpsToEnd: [Int] = []
            for (index, branch) in branches.enumerated() {
                let isLast = index == branches.count - 1
                let split = instructions.count
                if !isLast { instructions.append(.split(split + 1, -1)) }
                guard emit(branch, limit: limit) else { return false }
                if !isLast {
                    jumpsToEnd.append(instructions.count)
                    instructions.append(.jump(-1))
                    instructions[split] = .split(split + 1, instructions.count)
                }
            }
            for jump in jumpsToEnd { instructions[jump] = .jump(instructions.count) }
        case .repetition(let body, let minimum, let maximum):
            for _ in 0..<minimum {
                guard emit(body, limit: limit) else { return false }
            }
            if let maximum {
                var splits: [Int] = []
                for _ in minimum..<maximum {
                    splits.append(instructions.count)
                    instructions.append(.split(instructions.count + 1, -1))
                    guard emit(body, limit: limit) else { return false }
                }
                for split in splits { instructions[split] = .split(split + 1, instructions.count) }
            } else {
                let loop = instructions.count
                instructions.append(.split(loop + 1, -1))
                guard emit(body, limit: limit) else { return false }
                instructions.append(.jump(loop))
                instructions[loop] = .split(loop + 1, instructions.count)
            }
        }
        return instructions.count < limit
    }

    /// Runs the automaton over `text`.
    /// - Parameters:
    ///   - anchored: whether the match must cover the whole text; otherwise any part of it will do.
    ///   - steps: the steps left (a live alternative at one code point, or one move between
    ///     instructions); lowered by those taken.
    /// - Returns: whether the text matches, or `nil` when `steps` ran out first.
    func run(on text: String, anchored: Bool, steps: inout Int) -> Bool? {
        var state = State(size: instructions.count)
        let scalars = text.unicodeScalars
        var index = scalars.startIndex
        guard addThread(0, to: &state, atStart: true, atEnd: index == scalars.endIndex, steps: &steps) else { return nil }
        while true {
            let atEnd = index == scalars.endIndex
            if state.matched && (!anchored || atEnd) { return true }
            if atEnd || (anchored && state.current.isEmpty) { return false }
            let scalar = scalars[index]
            scalars.formIndex(after: &index)
            let nextAtEnd = index == scalars.endIndex
            state.advance()
            for pc in state.previous {
                steps -= 1
                let consumed: Bool
                switch instructions[pc] {
                case .scalar(let value): consumed = value == scalar.value
                case .characters(let set): consumed = classes[set].contains(scalar)
                default: consumed = false
                }
                if consumed {
                    guard addThread(pc + 1, to: &state, atStart: false, atEnd: nextAtEnd, steps: &steps) else { return nil }
                }
            }
            if !anchored {
                guard addThread(0, to: &state, atStart: false, atEnd: nextAtEnd, steps: &steps) else { return nil }
            }
            guard steps >= 0 else { return nil }
        }
    }

    /// The live alternatives: the instructions waiting for the next code point.
    private struct State {
        /// Waiting at the current position.
        var current: [Int] = []
        /// Those of the position before, while the current ones are built.
        var previous: [Int] = []
        /// Whether a `match` instruction was reached at the current position.
        var matched = false
        /// For each instruction, the generation in which it was last added.
        var marks: [UInt32]
        var generation: UInt32 = 1
        var stack: [Int] = []

        init(size: Int) {
            marks = Array(repeating: 0, count: size)
        }

        mutating func advance() {
            swap(&current, &previous)
            current.removeAll(keepingCapacity: true)
            matched = false
            generation += 1
        }
    }

    /// Adds `pc` and every instruction reachable from it without consuming a code point.
    private func addThread(_ pc: Int, to state: inout State, atStart: Bool, atEnd: Bool, steps: inout Int) -> Bool {
        state.stack.append(pc)
        while let pc = state.stack.popLast() {
            steps -= 1
            guard state.marks[pc] != state.generation else { continue }
            state.marks[pc] = state.generation
            switch instructions[pc] {
            case .scalar, .characters:
                state.current.append(pc)
            case .split(let first, let second):
                state.stack.append(second)
                state.stack.append(first)
            case .jump(let target):
                state.stack.append(target)
            case .start:
                if atStart { state.stack.append(pc + 1) }
            case .end:
                if atEnd { state.stack.append(pc + 1) }
            case .match:
                state.matched = true
            }
        }
        return steps >= 0
    }
}
