import Foundation

/// A point on Earth in degrees, with the two things "nearby" needs: the distance between points and the
/// latitude/longitude boxes that hold every point within a radius.
public struct GeoPoint: Sendable, Equatable {
    public var latitude: Double
    public var longitude: Double

    /// The mean Earth radius, in metres.
    public static let earthRadius = 6_371_008.8

    public init?(latitude: Double, longitude: Double) {
        guard latitude.isFinite, longitude.isFinite, (-90...90).contains(latitude),
            (-180...180).contains(longitude)
        else { return nil }
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Great-circle distance in metres (haversine: exact enough at every scale, stable for small ones).
    public func distance(to other: GeoPoint) -> Double {
        let lat1 = latitude * .pi / 180
        let lat2 = other.latitude * .pi / 180
        let dLat = lat2 - lat1
        let dLon = (other.longitude - longitude) * .pi / 180
        let a = sin(dLat / 2) * sin(dLat / 2) + cos(lat1) * cos(lat2) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * Self.earthRadius * asin(min(1, a.squareRoot()))
    }

    public struct Box: Sendable, Equatable {
        public var minLatitude: Double
        public var maxLatitude: Double
        public var minLongitude: Double
        public var maxLongitude: Double
    }

    /// Boxes that together hold every point within `radius` metres: one box, or two when the circle
    /// crosses the 180th meridian. Near a pole the box spans every longitude.
    public func boxes(within radius: Double) -> [Box] {
        let radius = max(0, radius)
        let dLat = radius / Self.earthRadius * 180 / .pi
        let minLat = max(-90, latitude - dLat)
        let maxLat = min(90, latitude + dLat)
        // The widest longitude span of the circle is at the latitude farthest from the equator it reaches.
        let farthest = max(abs(minLat), abs(maxLat)) * .pi / 180
        let ratio = sin(radius / Self.earthRadius) / cos(farthest)
        guard maxLat < 90, minLat > -90, ratio < 1, radius < .pi * Self.earthRadius / 2 else {
            return [Box(minLatitude: minLat, maxLatitude: maxLat, minLongitude: -180, maxLongitude: 180)]
        }
        let dLng = asin(ratio) * 180 / .pi
        let west = longitude - dLng
        let east = longitude + dLng
        if west < -180 {
            return [
                Box(minLatitude: minLat, maxLatitude: maxLat, minLongitude: -180, maxLongitude: east),
                Box(minLatitude: minLat, maxLatitude: maxLat, minLongitude: west + 360, maxLongitude: 180),
            ]
        }
        if east > 180 {
            return [
                Box(minLatitude: minLat, maxLatitude: maxLat, minLongitude: west, maxLongitude: 180),
                Box(minLatitude: minLat, maxLatitude: maxLat, minLongitude: -180, maxLongitude: east - 360),
            ]
        }
        return [Box(minLatitude: minLat, maxLatitude: maxLat, minLongitude: west, maxLongitude: east)]
    }
}
