// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Isobar",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "isobar", targets: ["isobar"]),
        .library(name: "IsobarCore", targets: ["IsobarCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
        // The weather history: SQLite (Debian libsqlite3-dev) through GRDB.
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        // The C libraries come from the system (Debian: libcmark-dev, libcurl4-openssl-dev,
        // libssl-dev for the SHA-256 an S3 upload is signed with).
        .systemLibrary(
            name: "CCmark", pkgConfig: "libcmark",
            providers: [.apt(["libcmark-dev"]), .brew(["cmark"])]),
        .systemLibrary(
            name: "CCurl", pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]),
        .systemLibrary(
            name: "CCrypto", pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"]), .brew(["openssl"])]),
        // The share card's rasteriser: librsvg draws Templates/card.svg onto a cairo surface
        // (Debian: librsvg2-dev, and libcairo2-dev, which owns cairo.pc). Its flags come from cairo's
        // pkg-config file: Sources/CRsvg/shim.h says why not librsvg's.
        .systemLibrary(
            name: "CRsvg", pkgConfig: "cairo",
            providers: [.apt(["librsvg2-dev", "libcairo2-dev"]), .brew(["librsvg"])]),
        // ...and libpng writes the card's pixels as PNG (Debian: libpng-dev), faster than cairo.
        .systemLibrary(
            name: "CPng", pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"]), .brew(["libpng"])]),
        // ...and libjpeg(-turbo) (Debian: libjpeg62-turbo-dev): with libpng, a map tile is decoded
        // in full before it is kept (CTiles, in C: both report errors by longjmp).
        .systemLibrary(
            name: "CJpeg", pkgConfig: "libjpeg",
            providers: [.apt(["libjpeg62-turbo-dev"]), .brew(["jpeg-turbo"])]),
        .target(name: "CTiles", dependencies: ["CPng", "CJpeg"]),
        // The share cards' helper processes (posix_spawn with glibc's closefrom), in C:
        // it needs _GNU_SOURCE.
        .target(name: "CProcess"),
        // CLDR's plural rules, from ICU (Debian: libicu-dev): which of "one", "few",
        // "many"… a count takes in a language.
        // A C target, not a system library: ICU's headers must not meet Foundation's
        // private copy of ICU in Swift (Sources/CICU/include/isobar_icu.h says more).
        .target(
            name: "CICU",
            linkerSettings: [.linkedLibrary("icui18n"), .linkedLibrary("icuuc")]),
        .target(
            name: "IsobarCore",
            dependencies: [
                "CCmark", "CCurl", "CCrypto", "CICU", "CRsvg", "CPng", "CTiles", "CProcess",
                .product(name: "Yams", package: "Yams"),
                .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C API, to bind the history's values without boxing them.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                // The loopback server of `isobar serve` (Serve/).
                .product(name: "FlyingFox", package: "FlyingFox"),
            ]),
        .executableTarget(
            name: "isobar",
            dependencies: [
                "IsobarCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .testTarget(
            name: "IsobarCoreTests",
            dependencies: [
                // CRsvg: cairo decodes the share cards' PNGs for the pixel tests.
                "IsobarCore", "isobar", "CRsvg",
                .product(name: "FlyingFox", package: "FlyingFox"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            // Read from disk by path (see TestSupport.swift), not bundled as resources.
            exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)
