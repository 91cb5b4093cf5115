internal import CCurl
import Foundation

// libcurl's callbacks, as C function pointers: each finds its transfer from the pointer the
// transfer's options gave libcurl (`CurlTransfer+Options`) and hands the call over.

/// The transfer behind a callback's user data.
private func transfer(_ userdata: UnsafeMutableRawPointer?) -> CurlTransfer {
    Unmanaged<CurlTransfer>.fromOpaque(userdata!).takeUnretainedValue()
}

/// Response body bytes (`CURLOPT_WRITEFUNCTION`).
let curlTransferWrite: sluice_data_callback = { buffer, size, count, userdata in
    transfer(userdata).receiveBody(UnsafeRawBufferPointer(start: buffer, count: size * count))
}

/// A line of a response head (`CURLOPT_HEADERFUNCTION`).
let curlTransferHeader: sluice_data_callback = { buffer, size, count, userdata in
    transfer(userdata).receiveHeaderLine(UnsafeRawBufferPointer(start: buffer, count: size * count))
}

/// Request body bytes wanted (`CURLOPT_READFUNCTION`).
let curlTransferRead: sluice_data_callback = { buffer, size, count, userdata in
    transfer(userdata).readBody(into: UnsafeMutableRawBufferPointer(start: buffer, count: size * count))
}

/// The request body rewound (`CURLOPT_SEEKFUNCTION`).
let curlTransferSeek: sluice_seek_callback = { userdata, offset, origin in
    guard origin == SEEK_SET else { return Int32(CURL_SEEKFUNC_CANTSEEK) }
    return transfer(userdata).rewindBody(to: Int64(offset))
}

/// Bytes moved (`CURLOPT_XFERINFOFUNCTION`).
let curlTransferProgress: sluice_xferinfo_callback = { userdata, downloadTotal, downloadNow, _, uploadNow in
    transfer(userdata).reportProgress(downloadTotal: Int64(downloadTotal), downloadNow: Int64(downloadNow), uploadNow: Int64(uploadNow))
    return 0
}

/// What libcurl wrote, for the request head (`CURLOPT_DEBUGFUNCTION`).
let curlTransferDebug: sluice_debug_callback = { _, type, data, size, userdata in
    if type == CURLINFO_HEADER_OUT, let data {
        transfer(userdata).recordSentHead(UnsafeRawBufferPointer(start: data, count: size))
    }
    return 0
}

/// The connection ready, before the request (`CURLOPT_PREREQFUNCTION`).
let curlTransferPrerequest: sluice_prereq_callback = { userdata, primaryIP, _, primaryPort, _ in
    let address = primaryIP.map { String(cString: $0) } ?? ""
    return transfer(userdata).connectionReady(remoteAddress: address, remotePort: Int(primaryPort))
}
