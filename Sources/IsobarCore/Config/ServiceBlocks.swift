import Foundation

/// One service's block of `isobar.yml` (`met_norway:`), as its folder declares and reads it.
public protocol ServiceBlock: Sendable, Equatable {
    init()
}

/// Each service's block, by its type: the config holds them without knowing the services.
/// A service reads and writes its own through the property its folder adds to `SiteConfig`
/// (`config.metNorway`); a block never set is its defaults.
public struct ServiceBlocks: Sendable, Equatable {
    private var blocks: [ObjectIdentifier: any ServiceBlock] = [:]

    public subscript<Block: ServiceBlock>(_ type: Block.Type) -> Block {
        get { blocks[ObjectIdentifier(type)] as? Block ?? Block() }
        set { blocks[ObjectIdentifier(type)] = newValue }
    }

    public static func == (a: ServiceBlocks, b: ServiceBlocks) -> Bool {
        Set(a.blocks.keys).union(b.blocks.keys).allSatisfy { key in
            switch (a.blocks[key], b.blocks[key]) {
            case let (left?, right?): return left.isEqual(to: right)
            // A block set to its defaults is the block never set.
            case let (left?, nil): return left.isDefault
            case let (nil, right?): return right.isDefault
            case (nil, nil): return true
            }
        }
    }
}

extension ServiceBlock {
    fileprivate func isEqual(to other: any ServiceBlock) -> Bool { (other as? Self) == self }
    fileprivate var isDefault: Bool { self == Self() }
}
