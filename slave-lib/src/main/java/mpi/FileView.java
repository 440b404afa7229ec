package mpi;

/**
 * The arguments of a {@link File#setView} call, as {@link File#getView()} reports them: a plain
 * value holder, as in Open MPI.
 */
public final class FileView {

    private final long disp;
    private final Datatype etype;
    private final Datatype filetype;
    private final String datarep;

    /**
     * A view record.
     *
     * @param disp     displacement in bytes from the start of the file
     * @param etype    elementary type: the unit of offsets
     * @param filetype the visible pattern, tiled from {@code disp}
     * @param datarep  data representation
     */
    public FileView(long disp, Datatype etype, Datatype filetype, String datarep) {
        this.disp = disp;
        this.etype = etype;
        this.filetype = filetype;
        this.datarep = datarep;
    }

    /**
     * The displacement.
     *
     * @return bytes from the start of the file
     */
    public long getDisp() {
        return disp;
    }

    /**
     * The elementary type.
     *
     * @return the etype
     */
    public Datatype getEType() {
        return etype;
    }

    /**
     * The file type.
     *
     * @return the filetype
     */
    public Datatype getFileType() {
        return filetype;
    }

    /**
     * The data representation.
     *
     * @return {@code "native"}, {@code "internal"} or {@code "external32"}
     */
    public String getDataRep() {
        return datarep;
    }
}
